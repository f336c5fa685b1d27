// CommonJS users: every export of every package loads with require() (Node >= 20.19 loads ES
// modules synchronously through require when an export has a condition require matches, and
// when no module of the graph awaits at top level).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Manifest } from './consumer.js';
import { lastJson, runNode } from './run.js';

const consumer = inject('consumerDir');
const tarballs = inject('tarballs');

/** `@wiregrad/autograd`, `@wiregrad/autograd/nn`, ...: every subpath each packed manifest exports. */
const specifiers = Object.keys(tarballs)
  .sort()
  .flatMap((name) => {
    const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules', name, 'package.json'), 'utf8')) as Manifest;
    return Object.keys(manifest.exports ?? { '.': null }).map((sub) =>
      sub === '.' ? name : `${name}/${sub.slice(2)}`,
    );
  });

interface Loaded {
  required?: string[];
  imported?: string[];
  error?: string;
}

const LOAD_ALL = `
const specifiers = ${JSON.stringify(specifiers)};
(async () => {
  const out = {};
  for (const s of specifiers) {
    try {
      const required = Object.keys(require(s)).sort();
      const imported = Object.keys(await import(s)).sort();
      out[s] = { required, imported };
    } catch (e) {
      out[s] = { error: (e.code ? e.code + ': ' : '') + e.message };
    }
  }
  console.log(JSON.stringify(out));
})();
`;

const TRAIN = `
const { tensor, noGrad } = require('@wiregrad/autograd');
const xs = tensor([1, 2, 3, 4]);
const w = tensor(0, { requiresGrad: true });
for (let step = 0; step < 30; step++) {
  const loss = xs.mul(w).sub(xs.mul(3)).pow(2).mean();
  loss.backward();
  noGrad(() => w.sub_(w.grad.mul(0.05)));
  w.grad = null;
}
console.log(JSON.stringify({ w: w.item(), type: typeof module.exports }));
`;

describe('CommonJS: require() of the published packages', () => {
  const dir = join(consumer, 'cjs');
  let loaded: Record<string, Loaded> = {};

  beforeAll(async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'loadAll.cjs'), LOAD_ALL);
    loaded = lastJson(await runNode(join(dir, 'loadAll.cjs'), { cwd: dir })) as Record<string, Loaded>;
  });

  it('covers every export of every package', () => {
    expect(specifiers).toEqual(
      expect.arrayContaining(['@wiregrad/tensor', '@wiregrad/autograd', '@wiregrad/rpc', '@wiregrad/dist-autograd']),
    );
    expect(Object.keys(loaded).sort()).toEqual([...specifiers].sort());
  });

  it.each(specifiers)('require(%s) gives the same exports as import()', (specifier) => {
    const r = loaded[specifier]!;
    expect(r.error).toBeUndefined();
    expect(r.required!.length).toBeGreaterThan(0);
    expect(r.required).toEqual(r.imported);
  });

  it('a CommonJS program trains with require("@wiregrad/autograd")', async () => {
    writeFileSync(join(dir, 'train.cjs'), TRAIN);
    const out = lastJson(await runNode(join(dir, 'train.cjs'), { cwd: dir })) as { w: number; type: string };
    expect(out.w).toBeCloseTo(3, 3);
    expect(out.type).toBe('object');
  });
});
