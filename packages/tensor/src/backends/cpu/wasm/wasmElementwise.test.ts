import { afterEach, describe, expect, it } from 'vitest';
import { getNumThreads, setNumThreads } from './cpuKernels.js';
import { bothKernels, expectClose, expectIdentical } from './__tests__/parity.js';
import * as ops from '../../../index.js';
import { randn, tensor, type Tensor } from '../../../index.js';

// 3 past a multiple of 4 so every SIMD loop has a tail; big enough for the wasm path
const N = 5003;
const SPECIALS = [NaN, Infinity, -Infinity, 0, -0, 1e-45, -1e-40, 3.4e38, -3.4e38, 1, -1, 0.5];

/** randn values with the special values sprinkled in. */
function values(n: number, seed: number): Tensor {
  const data = randn([n]).mul(seed).toTypedArray() as Float32Array;
  for (let i = 0; i < SPECIALS.length; i++) data[(i * 397 + seed * 13) % n] = SPECIALS[i]!;
  return tensor(data);
}

describe('wasm elementwise kernels against the TypeScript loops', () => {
  const threads = getNumThreads();
  afterEach(() => setNumThreads(threads));

  const binary = { add: ops.add, sub: ops.sub, mul: ops.mul, div: ops.div, maximum: ops.maximum, minimum: ops.minimum };

  it.each(Object.keys(binary))('%s: same shapes, tensor op scalar, scalar op tensor, bit for bit', (name) => {
    const f = binary[name as keyof typeof binary];
    const a = values(N, 3);
    const b = values(N, 5);
    const s = tensor(1.75);
    for (const [x, y] of [
      [a, b],
      [a, s],
      [s, b],
    ] as const) {
      const { ts, wasm } = bothKernels(() => f(x, y));
      if (name === 'maximum' || name === 'minimum') {
        // the only freedom: which zero max(-0, +0) returns
        expectClose(wasm, ts, 0);
      } else {
        expectIdentical(wasm, ts);
      }
    }
  });

  it.each(['sub', 'div', 'maximum'] as const)(
    '%s with a row broadcast over leading dims, either side (a bias)',
    (name) => {
      const f = binary[name];
      const full = values(60 * 103, 21).reshape([3, 20, 103]);
      for (const row of [values(103, 23), values(103, 25).reshape([1, 103]), values(20 * 103, 27).reshape([20, 103])]) {
        for (const [x, y] of [
          [full, row],
          [row, full],
        ] as const) {
          const { ts, wasm } = bothKernels(() => f(x, y));
          expectClose(wasm, ts, 0);
        }
      }
    },
  );

  it('a contiguous view with an offset and a [rows, cols] shape', () => {
    const base = values(3 * N, 7);
    const x = base.slice(0, 2, 2 + 4000).reshape([40, 100]);
    const y = values(4000, 9).reshape([40, 100]);
    const { ts, wasm } = bothKernels(() => ops.add(x, y));
    expectIdentical(wasm, ts);
  });

  it.each(['neg', 'abs', 'sqrt', 'relu'] as const)('%s is exact', (name) => {
    const x = values(N, 11);
    const { ts, wasm } = bothKernels(() => ops[name](x));
    expectIdentical(wasm, ts);
  });

  it('exp and log are within 1 ulp over their whole float32 range (Note [Vector exp and log])', () => {
    const grid = new Float32Array(40_000);
    for (let i = 0; i < grid.length; i++) grid[i] = -104 + (193 * i) / grid.length;
    const x = tensor([...grid, ...SPECIALS]);
    const e = bothKernels(() => ops.exp(x));
    expectClose(e.wasm, e.ts, 2.4e-7, 1e-44);
    const pos = tensor(Float32Array.from(grid, (v) => Math.exp(v)));
    const l = bothKernels(() => ops.log(ops.cat([pos, x])));
    expectClose(l.wasm, l.ts, 2.4e-7, 1e-6);
    expect(
      Array.from(
        ops
          .log(tensor([0, -1, Infinity, NaN, 1e-45]).expand([1024, 5]).contiguous())
          .toTypedArray()
          .slice(0, 5),
      ),
    ).toEqual([-Infinity, NaN, Infinity, NaN, expect.closeTo(-103.2789, 3)]);
  });

  it('exp gives the same bits on vectors whose lanes are all within +-86 (the fast path) as on vectors with a lane beyond', () => {
    const inside = Float32Array.from({ length: 8192 }, (_, i) => -86 + (172 * i) / 8191);
    const mixed = inside.map((v, i) => (i % 4 === 3 ? 100 : v));
    const fast = ops.exp(tensor(inside)).toTypedArray() as Float32Array;
    const general = ops.exp(tensor(mixed)).toTypedArray() as Float32Array;
    expectIdentical(
      general.filter((_, i) => i % 4 !== 3),
      fast.filter((_, i) => i % 4 !== 3),
    );
    expect(general.filter((_, i) => i % 4 === 3).every((v) => v === Infinity)).toBe(true);
  });

  it('sigmoid and silu match to float32 rounding (tails below 1e-30 may flush to 0)', () => {
    const x = values(N, 13).mul(20);
    for (const f of [ops.sigmoid, ops.silu]) {
      const { ts, wasm } = bothKernels(() => f(x));
      expectClose(wasm, ts, 5e-7, 1e-30);
    }
  });

  it('exact gelu (erf) is within 2.5e-7 max(|x|, 1) of the TypeScript loop, special values alike (Note [Vector erf])', () => {
    const grid = Float32Array.from({ length: 40_000 }, (_, i) => -12 + (24 * i) / 40_000);
    const x = tensor([...grid, ...SPECIALS]);
    const { ts, wasm } = bothKernels(() => ops.gelu(x));
    const xs = x.toTypedArray() as Float32Array;
    expectClose(
      wasm.map((v, i) => (Number.isFinite(v) ? (v - ts[i]!) / Math.max(Math.abs(xs[i]!), 1) : v)),
      ts.map((v) => (Number.isFinite(v) ? 0 : v)),
      0,
      2.5e-7,
    );
    // erf saturates: gelu(x) = x above 4 sqrt 2, and -0 below -4 sqrt 2 as in float32's 1 + erf
    expect(
      Array.from(
        ops
          .gelu(tensor([6, 100, -Infinity, Infinity, NaN, 0]).expand([1024, 6]).contiguous())
          .toTypedArray()
          .slice(0, 6),
      ),
    ).toEqual([6, 100, NaN, Infinity, NaN, 0]);
  });

  it('splits a big op over the pool with the same bits as one thread', () => {
    const a = values(1 << 19, 17);
    const b = values(1 << 19, 19);
    setNumThreads(1);
    const one = [ops.add(a, b), ops.exp(a)].map((t) => t.toTypedArray() as Float32Array);
    setNumThreads(2);
    const two = [ops.add(a, b), ops.exp(a)].map((t) => t.toTypedArray() as Float32Array);
    expectIdentical(two[0]!, one[0]!);
    expectIdentical(two[1]!, one[1]!);
  });

  it("claimed chunks (Note [Claimed chunks]): a ragged length gives one thread's bits on 2 and 3 threads", () => {
    const a = values((1 << 18) + 16384 * 3 + 13, 23);
    setNumThreads(1);
    const one = [ops.exp(a), ops.sigmoid(a), ops.gelu(a)].map((t) => t.toTypedArray() as Float32Array);
    for (const count of [2, 3]) {
      setNumThreads(count);
      const many = [ops.exp(a), ops.sigmoid(a), ops.gelu(a)].map((t) => t.toTypedArray() as Float32Array);
      expectIdentical(many[0]!, one[0]!);
      expectIdentical(many[1]!, one[1]!);
      expectIdentical(many[2]!, one[2]!);
    }
  });
});

describe('wasm sum and softmax against the TypeScript kernels', () => {
  it('sum over all, over rows (last dim) and over columns (dim 0), float64 accumulators', () => {
    const x = randn([257, 63]);
    for (const f of [() => ops.sum(x), () => ops.sum(x, 1), () => ops.sum(x, 0), () => ops.sum(x.t(), 0)]) {
      const { ts, wasm } = bothKernels(f);
      expectClose(wasm, ts, 1e-6, 1e-6);
    }
    const big = randn([1 << 19]);
    const { ts, wasm } = bothKernels(() => ops.sum(big));
    expectClose(wasm, ts, 1e-6, 1e-4);
  });

  it('softmax and logSoftmax along the last dim, incl. -inf rows, NaN and rows with a tail', () => {
    const data = randn([100, 67]).mul(10).toTypedArray() as Float32Array;
    data.fill(-Infinity, 67, 134);
    data[300] = NaN;
    data[500] = Infinity;
    const x = tensor(data).reshape([100, 67]);
    const soft = bothKernels(() => ops.softmax(x, -1));
    expectClose(soft.wasm, soft.ts, 2e-6, 1e-7);
    // x - (max + log(sum)) in float32, as PyTorch computes it: a few ulp of the shift (|x| <= ~40 here)
    const logSoft = bothKernels(() => ops.logSoftmax(x, -1));
    expectClose(logSoft.wasm, logSoft.ts, 2e-6, 1e-5);
  });
});

describe('operands and results in wasm memory (Note [Storages in wasm memory])', () => {
  const threads = getNumThreads();
  afterEach(() => setNumThreads(threads));
  /** Both kernels' values; the results are released, so the specs' blocks come back at once (Note [Releasing storages]). */
  const released = (f: () => Tensor) => ops.tidy(() => bothKernels(f));
  /** Big enough to split over the pool in place, and ragged. */
  const BIG = (1 << 18) + 13;
  const inHeap = (t: Tensor) => t.storage.data.buffer instanceof SharedArrayBuffer;
  /** `t`'s values in a storage of wasm memory (a wasm kernel's result lives there). */
  const heapCopy = (t: Tensor) => {
    const c = ops.mul(t, 1);
    expect(inHeap(c)).toBe(true);
    return c;
  };

  it('are read and written in place, on one thread and split over the pool, with the TypeScript bits', () => {
    const a = heapCopy(values(BIG, 3));
    const b = heapCopy(values(BIG, 5));
    const outside = values(BIG, 7);
    expect(inHeap(outside)).toBe(false);
    for (const count of [1, 2, 3]) {
      setNumThreads(count);
      for (const [x, y] of [
        [a, b],
        [a, outside],
        [outside, b],
        [a, tensor(1.75)],
        [tensor(-2), b],
      ] as const) {
        for (const f of [ops.add, ops.sub, ops.mul, ops.div]) {
          const { ts, wasm } = released(() => f(x, y));
          expectIdentical(wasm, ts);
        }
      }
      for (const f of [ops.neg, ops.abs, ops.sqrt, ops.relu]) {
        const { ts, wasm } = released(() => f(a));
        expectIdentical(wasm, ts);
      }
      for (const f of [ops.exp, ops.sigmoid]) {
        const { ts, wasm } = released(() => f(a));
        expectClose(wasm, ts, 5e-7, 1e-30);
      }
      expect(inHeap(ops.add(a, b))).toBe(true);
    }
  });

  it('a view with an offset off the 16-byte grid, and a row broadcast over it', () => {
    const base = heapCopy(values(BIG + 5, 9));
    const x = base.slice(0, 5, 5 + 4096 * 64).reshape([4096, 64]);
    const row = heapCopy(values(64 * 1024, 11)).slice(0, 3, 67);
    for (const count of [1, 2]) {
      setNumThreads(count);
      for (const [p, q] of [
        [x, row],
        [row, x],
        [x, x],
      ] as const) {
        const { ts, wasm } = released(() => ops.sub(p, q));
        expectIdentical(wasm, ts);
      }
      const e = released(() => ops.exp(x));
      expectClose(e.wasm, e.ts, 2.4e-7, 1e-44);
    }
  });

  it('sum and softmax read in place; softmax writes its result in place', () => {
    const x = heapCopy(randn([512, 300]));
    for (const f of [() => ops.sum(x), () => ops.sum(x, 1), () => ops.sum(x, 0)]) {
      const { ts, wasm } = bothKernels(f);
      expectClose(wasm, ts, 1e-6, 1e-4);
    }
    const soft = released(() => ops.softmax(x, -1));
    expectClose(soft.wasm, soft.ts, 2e-6, 1e-7);
    expect(inHeap(ops.softmax(x, -1))).toBe(true);
  });
});
