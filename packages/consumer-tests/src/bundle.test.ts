// Bundled programs run: tensor methods, cpu kernels, gradient rules and dist-autograd's rpc
// hooks all register by importing a module for its side effects, so a `sideEffects` field
// that leaves one of those modules out makes bundlers drop it silently (Note [Registration
// by import] in the README of this package).
import { describe, expect, inject, it } from 'vitest';
import { bundle, freePort, lastJson, runNode } from './run.js';

const consumer = inject('consumerDir');
/** zeromq is a native addon: bundlers leave it to node_modules, as every Node user of rpc does */
const external = ['zeromq'];

interface Program {
  name: string;
  check(out: unknown): void;
  env?: () => Promise<Record<string, string>>;
}

const PROGRAMS: Program[] = [
  {
    name: 'tensorMatmul',
    check(out) {
      const o = out as { y: number[][]; relu: number[]; bigCorner: number; bigShape: number[] };
      expect(o.y).toEqual([[17], [39]]);
      expect(o.relu).toEqual([0, 2]);
      // sum over k < 256 of (k / 65536)^2 = 5559680 / 2^32
      expect(o.bigCorner).toBeCloseTo(5559680 / 2 ** 32, 6);
      expect(o.bigShape).toEqual([256, 256]);
    },
  },
  {
    name: 'autogradFit',
    check(out) {
      const o = out as { dy: number; d2y: number; w: number; first: number; last: number };
      expect(o.dy).toBe(12);
      expect(o.d2y).toBe(12);
      expect(o.w).toBeCloseTo(3, 3);
      expect(o.first).toBe(67.5); // mean of (3x)^2 over x = 1..4 at w = 0
      expect(o.last).toBeLessThan(1e-4);
    },
  },
  {
    name: 'nnTrain',
    check(out) {
      const o = out as { first: number; last: number; params: number };
      expect(o.params).toBe(4);
      expect(o.first).toBeGreaterThan(0.5);
      expect(o.last).toBeLessThan(o.first / 20);
    },
  },
  {
    name: 'distAutograd',
    env: async () => ({ PORT: String(await freePort()) }),
    check(out) {
      const o = out as { c: number[]; gradA: number[] | null; gradB: number[] | null; aGrad: unknown };
      expect(o.c).toEqual([4, 10, 18]);
      expect(o.gradA).toEqual([4, 5, 6]);
      expect(o.gradB).toEqual([1, 2, 3]);
      expect(o.aGrad).toBeNull(); // distributed backward leaves .grad alone
    },
  },
];

describe.each(['esm', 'cjs'] as const)('esbuild --bundle --platform=node --format=%s', (format) => {
  it.each(PROGRAMS.map((p) => [p.name, p] as const))('%s runs bundled and prints the expected values', async (_name, program) => {
    const b = await bundle({ consumer, program: program.name, platform: 'node', format, external, outDir: `bundle-node-${format}` });
    const r = await runNode(b.file, { cwd: consumer, env: program.env ? await program.env() : {} });
    program.check(lastJson(r));
  });
});

describe('the sideEffects fields drop no module the packages need', () => {
  it.each(PROGRAMS.map((p) => p.name))('%s bundles the same modules as when every sideEffects field is ignored', async (program) => {
    const options = { consumer, program, platform: 'node', format: 'esm', external, outDir: 'bundle-modules' } as const;
    const honoured = await bundle(options);
    const ignored = await bundle({ ...options, ignoreSideEffects: true });
    expect(honoured.modules).toEqual(ignored.modules);
    // not vacuous: the modules that only register things are in both
    expect(honoured.modules).toEqual(expect.arrayContaining([
      'node_modules/@wiregrad/tensor/dist/methods/math.js',
      'node_modules/@wiregrad/tensor/dist/backends/cpu/registerMath.js',
    ]));
  });

  it('the rpc hooks of dist-autograd and the gradient rules of autograd are kept', async () => {
    const b = await bundle({ consumer, program: 'distAutograd', platform: 'node', format: 'esm', external, outDir: 'bundle-modules' });
    expect(b.modules).toEqual(expect.arrayContaining([
      'node_modules/@wiregrad/dist-autograd/dist/install.js',
      'node_modules/@wiregrad/autograd/dist/gradients/binary.grad.js',
    ]));
  });
});
