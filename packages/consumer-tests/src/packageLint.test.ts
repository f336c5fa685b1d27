// The packed tarballs as linters see them: publint (exports, files, fields) and
// @arethetypeswrong/cli (the types each resolution mode finds), plus facts of the manifests.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, expect, inject, it } from 'vitest';
import type { Manifest } from './consumer.js';

const consumer = inject('consumerDir');
const tarballs = inject('tarballs');
const names = Object.keys(tarballs).sort();

const attwBin = join(
  dirname(createRequire(import.meta.url).resolve('@arethetypeswrong/cli/package.json')),
  'dist/index.js',
);

function published(name: string): Manifest {
  return JSON.parse(readFileSync(join(consumer, 'node_modules', name, 'package.json'), 'utf8')) as Manifest;
}

function conditionsOf(entry: unknown): string[] {
  return entry !== null && typeof entry === 'object' ? Object.keys(entry) : [];
}

describe.each(names)('%s as published', (name) => {
  it('passes publint in strict mode (warnings fail too)', async () => {
    const tarball = readFileSync(tarballs[name]!);
    const { messages, pkg } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
      strict: true,
      level: 'suggestion',
    });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([]);
  });

  it('passes @arethetypeswrong/cli (node16 and bundler resolution; require of ESM is allowed)', async () => {
    // See Note [ESM first]: Node >= 20.19 and TypeScript's `module: node20` load ES modules with
    // require(), so attw's cjs-resolves-to-esm is not a problem for these packages.
    const r = await new Promise<{ code: number; out: string }>((done) => {
      execFile(
        process.execPath,
        [
          attwBin,
          tarballs[name]!,
          '--profile',
          'node16',
          '--ignore-rules',
          'cjs-resolves-to-esm',
          '--no-definitely-typed',
          '--format',
          'ascii',
          '--no-color',
          '--no-emoji',
        ],
        { timeout: 90_000 },
        (error, stdout, stderr) => {
          done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out: stdout + stderr });
        },
      );
    });
    expect(r.out).toContain(name);
    expect({ code: r.code, out: r.code === 0 ? '' : r.out }).toEqual({ code: 0, out: '' });
  });

  it('ends every export with a default condition, after types first', () => {
    const exportsField = published(name).exports ?? {};
    expect(Object.keys(exportsField).length).toBeGreaterThan(0);
    for (const [sub, entry] of Object.entries(exportsField)) {
      const conditions = conditionsOf(entry);
      expect({ sub, first: conditions[0], last: conditions[conditions.length - 1] }).toEqual({
        sub,
        first: 'types',
        last: 'default',
      });
    }
  });

  it('depends on no workspace: ranges and says sideEffects: true (Note [Registration by import])', () => {
    const m = published(name);
    const ranges = Object.values({ ...m.dependencies, ...m.peerDependencies, ...m.optionalDependencies });
    expect(ranges.filter((r) => r.startsWith('workspace:'))).toEqual([]);
    expect(m.sideEffects).toBe(true);
  });
});
