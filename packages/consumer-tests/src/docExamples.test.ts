// Every TypeScript block of every README and docs/*.md is checked by a spec: this one runs the
// complete programs against the installed tarballs, as a user who copies them would (the ones for
// two processes as two processes), and checks what their comments say they print; it checks that
// the names docs/api.md's signature listings use are exports; and it knows which blocks are
// checked elsewhere (readmeTypes.test.ts type-checks every README block; distributed's own spec
// runs its README's program). A new block must be given one of these here, or this spec fails.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { describe, expect, inject, it } from 'vitest';
import { type DocBlock, docFiles, instrument, reported, tsBlocks } from './docBlocks.js';
import { freePort, type RunResult, runNode } from './run.js';

const consumer = inject('consumerDir');

type How =
  /** a whole program, run with node (`processes` of it at once, each told its rank) */
  | { run: { processes?: 2; rank?: 'env' | 'argv' } }
  /** type-checked only, by readmeTypes.test.ts, for the reason given */
  | { types: string }
  /** run by another spec, named */
  | { spec: string }
  /** a listing of signatures (docs/api.md): the names it uses are runtime exports */
  | { signatures: true };

const HOW: Record<string, How> = {
  'README.md #1': { run: {} },
  'packages/autograd/README.md #1': { run: {} },
  'packages/dist-autograd/README.md #1': { run: { processes: 2, rank: 'argv' } },
  'packages/distributed/README.md #1': { spec: 'packages/distributed/src/__tests__/examples.test.ts' },
  'packages/distributed/README.md #2': {
    types: 'examples/collectives.ts verbatim, for wiregrad-run; examples.test.ts checks it is that file',
  },
  'packages/nn/README.md #1': { run: {} },
  'packages/nn/README.md #2': { run: {} },
  'packages/nn/README.md #3': { run: {} },
  'packages/rpc/README.md #1': { run: { processes: 2, rank: 'env' } },
  'packages/rpc/README.md #2': { types: 'joins a running group at a rendezvous on another machine (10.0.0.1)' },
  'packages/tensor/README.md #1': { run: {} },
  'packages/tensor/README.md #2': { run: {} },
  'packages/tensor/README.md #3': { run: {} },
  'packages/tensor/README.md #4': { run: {} },
  ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`docs/api.md #${i + 1}`, { signatures: true }])),
  'docs/distributed.md #1': { spec: 'packages/distributed/src/__tests__/examples.test.ts' },
};

const blocks: DocBlock[] = docFiles().flatMap(tsBlocks);
const dir = join(consumer, 'doc-examples');
mkdirSync(dir, { recursive: true });

/** The block as a plain ES module (types stripped by esbuild, as a user's tsx would), on `port` where it names 29500. */
async function program(
  block: DocBlock,
  port: number,
): Promise<{ file: string; expectations: ReturnType<typeof instrument>['expectations'] }> {
  const { program: code, expectations } = instrument(block.code.replaceAll('127.0.0.1:29500', `127.0.0.1:${port}`));
  const { code: js } = await transform(code, { loader: 'ts', format: 'esm', target: 'es2022' });
  const file = join(dir, `${block.id.replace(/[^a-z0-9]+/gi, '-')}.mjs`);
  writeFileSync(file, js);
  return { file, expectations };
}

const described = (r: RunResult) => `exit ${String(r.code)}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;

describe('the documentation', () => {
  it('has a way of checking each of its TypeScript blocks, and no way for a block it no longer has', () => {
    expect(blocks.map((b) => b.id).sort()).toEqual(Object.keys(HOW).sort());
  });

  it('leaves to readmeTypes.test.ts only README blocks (the ones it type-checks)', () => {
    for (const [id, how] of Object.entries(HOW))
      if ('types' in how) expect(id, id).toMatch(/^(README\.md|packages\/[\w-]+\/README\.md) #\d+$/);
  });

  const runs = blocks.filter((b) => 'run' in HOW[b.id]!);
  it.each(runs.map((b) => [b.id, b] as const))(
    '%s is seeded where it draws random numbers or initializes layers',
    (_id, b) => {
      const random = /\b(rand|randn|randint|randperm|Dropout\w*)\(|new (Linear|Conv\w*|Embedding|Sequential)\(/.test(
        b.code,
      );
      if (random) expect(b.code).toMatch(/^manualSeed\(\d+\);/m);
      else expect(b.code).not.toMatch(/\brandn?\(/);
    },
  );

  it.each(runs.map((b) => [b.id, b] as const))(
    '%s runs, and prints what its comments say',
    async (_id, block) => {
      const how = (HOW[block.id] as { run: { processes?: 2; rank?: 'env' | 'argv' } }).run;
      const port = await freePort();
      const { file, expectations } = await program(block, port);
      const ranks = how.processes === 2 ? [0, 1] : [0];
      const results = await Promise.all(
        ranks.map((rank) =>
          runNode(file, {
            cwd: consumer,
            timeoutMs: 150_000,
            ...(how.rank === 'env' ? { env: { RANK: String(rank) } } : {}),
            ...(how.rank === 'argv' ? { argv: [String(rank)] } : {}),
          }),
        ),
      );
      for (const r of results) {
        expect(r.code, described(r)).toBe(0);
        expect(r.stderr, described(r)).toBe('');
      }
      // rank 0 prints (the others only serve)
      const seen = reported(results[0]!.stdout);
      for (const e of expectations) {
        expect(seen.has(e.line), `line ${e.line} ran`).toBe(true);
        const value = seen.get(e.line);
        if (e.kind === 'json') expect(value, `line ${e.line}`).toEqual(e.expected);
        else
          expect(Object.keys(value as object).sort(), `line ${e.line}'s keys`).toEqual((e.expected as string[]).sort());
      }
    },
    300_000,
  );

  const MODULES = [
    '@wiregrad/autograd',
    '@wiregrad/nn',
    '@wiregrad/nn/optim',
    '@wiregrad/rpc',
    '@wiregrad/rpc/secret',
    '@wiregrad/dist-autograd',
    '@wiregrad/distributed',
  ];
  const listings = blocks.filter((b) => 'signatures' in HOW[b.id]!);
  it.each(listings.map((b) => [b.id, b] as const))(
    '%s names only exports: what it imports, and each function or class a line starts with',
    async (_id, block) => {
      const probe = join(dir, 'exports.mjs');
      writeFileSync(
        probe,
        `const names = new Set();\nfor (const m of ${JSON.stringify(MODULES)}) for (const k of Object.keys(await import(m))) names.add(k);\nconsole.log(JSON.stringify([...names]));\n`,
      );
      const r = await runNode(probe, { cwd: consumer });
      expect(r.code, described(r)).toBe(0);
      const exported = new Set(JSON.parse(r.stdout) as string[]);
      const names = new Set<string>();
      // a listing written as comments (`//   new Linear(...)`) is read as the lines it comments
      const lines = block.code.split('\n').filter((l) => l.trim() !== '');
      const code = lines.every((l) => /^\s*\/\//.test(l))
        ? lines.map((l) => l.replace(/^\s*\/\/\s*/, '')).join('\n')
        : block.code;
      // a line that starts a statement (not an indented method of the listing above it)
      for (const m of code.matchAll(/^(?:await\s+)?(?:new\s+)?([A-Za-z_]\w*)\s*[<(]/gm)) names.add(m[1]!);
      for (const m of code.matchAll(/import\s*\{([^}]*)\}\s*from/g))
        for (const spec of m[1]!.split(',')) {
          const name = spec.trim().split(/\s+as\s+/)[0]!;
          if (name && !name.startsWith('type ')) names.add(name);
        }
      expect(names.size).toBeGreaterThan(0);
      expect([...names].filter((n) => !exported.has(n))).toEqual([]);
    },
  );
});
