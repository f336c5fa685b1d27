import { existsSync } from 'node:fs';
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
});
