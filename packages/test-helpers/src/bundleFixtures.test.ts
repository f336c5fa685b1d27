import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleFixtures, runProcess } from './index.js';

const entry = (name: string) => fileURLToPath(new URL(`./__tests__/bundled/${name}.ts`, import.meta.url));

describe('bundleFixtures (Note [Bundled fixtures])', () => {
  it('bundles TypeScript fixtures and the workspace sources they import into files plain Node runs, an entry starting its sibling by name', async () => {
    const fixtures = await bundleFixtures([entry('parent'), entry('child')]);
    try {
      expect(fixtures.file('parent.ts')).toBe(fixtures.file('parent'));
      const r = await runProcess(process.execPath, [fixtures.file('parent')]);
      expect(r).toEqual({ status: 0, signal: null, stdout: 'sum 11,22,33\nthread said HELLO\n', stderr: '' });
    } finally {
      fixtures.remove();
    }
    expect(existsSync(fixtures.dir)).toBe(false);
  });

  it('removes the bundles of processes that are gone, and keeps those of live ones', async () => {
    const gone = await runProcess(process.execPath, ['-e', 'console.log(process.pid)']);
    const first = await bundleFixtures([entry('child')]);
    const cache = dirname(first.dir);
    const orphan = join(cache, `child-${gone.stdout.trim()}-0`);
    const live = join(cache, `child-${process.ppid}-0`);
    mkdirSync(orphan, { recursive: true });
    mkdirSync(live, { recursive: true });
    const second = await bundleFixtures([entry('child')]);
    try {
      expect([existsSync(orphan), existsSync(live), existsSync(first.dir)]).toEqual([false, true, true]);
    } finally {
      for (const b of [first, second]) b.remove();
      rmSync(live, { recursive: true, force: true });
    }
  });
});
