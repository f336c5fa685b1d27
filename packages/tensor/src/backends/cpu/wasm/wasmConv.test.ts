import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bothKernels, expectClose, expectIdentical } from './__tests__/parity.js';
import { getNumThreads, setNumThreads } from './cpuKernels.js';
import { MIN_WASM_VALUES } from './wasmConv.js';
import {
  adaptiveAvgPool2d,
  avgPool2d,
  col2im,
  conv1d,
  conv2d,
  im2col,
  manualSeed,
  maxPool2d,
  maxPool2dWithIndices,
  randn,
  type Tensor,
} from '../../../index.js';

/** A float32 [N, C, H, W] input, as is or as a transposed (non-contiguous) view of the same values. */
function input(shape: [number, number, number, number], strided: boolean): Tensor {
  const [N, C, H, W] = shape;
  return strided ? randn([N, C, W, H]).transpose(2, 3) : randn(shape);
}

const seeded = { seed: 7 };

/** Whether Im2Col of x [N, C, ..] with a kh×kw kernel at `positions` output positions runs in wasm. */
const wasmSized = (N: number, C: number, kernel: number, positions: number) =>
  N * C * kernel * positions >= MIN_WASM_VALUES;

describe('wasm Im2Col and Col2Im (Note [Wasm im2col]) against the TypeScript kernels', () => {
  it('property: any geometry (stride, asymmetric padding, dilation, pad value, strided input) gives the same columns and their adjoint the same image', () => {
    manualSeed(1);
    fc.assert(
      fc.property(
        fc.record({
          N: fc.integer({ min: 1, max: 3 }),
          C: fc.integer({ min: 1, max: 4 }),
          H: fc.integer({ min: 1, max: 19 }),
          W: fc.integer({ min: 1, max: 19 }),
          kh: fc.integer({ min: 1, max: 4 }),
          kw: fc.integer({ min: 1, max: 4 }),
          stride: fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 })),
          dilation: fc.tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 2 })),
          padding: fc.tuple(
            fc.integer({ min: 0, max: 4 }),
            fc.integer({ min: 0, max: 4 }),
            fc.integer({ min: 0, max: 4 }),
            fc.integer({ min: 0, max: 4 }),
          ),
          padValue: fc.constantFrom(0, -Infinity, 1.5),
          strided: fc.boolean(),
        }),
        (g) => {
          const [pt, pb, pl, pr] = g.padding;
          const span = (size: number, before: number, after: number, k: number, d: number) =>
            size + before + after - d * (k - 1);
          fc.pre(span(g.H, pt, pb, g.kh, g.dilation[0]) >= 1 && span(g.W, pl, pr, g.kw, g.dilation[1]) >= 1);
          const x = input([g.N, g.C, g.H, g.W], g.strided);
          const opts = { stride: g.stride, padding: g.padding, dilation: g.dilation };
          fc.pre(wasmSized(g.N, g.C, g.kh * g.kw, im2col(x, [g.kh, g.kw], opts).shape[2]!));
          const cols = bothKernels(() => im2col(x, [g.kh, g.kw], { ...opts, padValue: g.padValue }));
          expectIdentical(cols.wasm, cols.ts);
          const c = randn(im2col(x, [g.kh, g.kw], opts).shape);
          const image = bothKernels(() => col2im(c, [g.H, g.W], [g.kh, g.kw], opts));
          expectIdentical(image.wasm, image.ts);
          // the columns read as a transposed view (strides [.., 1, L]) sum back the same
          const ct = randn([c.shape[0]!, c.shape[2]!, c.shape[1]!]).transpose(1, 2);
          const fromView = bothKernels(() => col2im(ct, [g.H, g.W], [g.kh, g.kw], opts));
          expectIdentical(fromView.wasm, fromView.ts);
        },
      ),
      { ...seeded, numRuns: 60 },
    );
  });

  it('property: conv2d and conv1d (stride, padding incl. same, dilation, groups) match the TypeScript kernels', () => {
    manualSeed(2);
    fc.assert(
      fc.property(
        fc.record({
          N: fc.integer({ min: 1, max: 3 }),
          groups: fc.integer({ min: 1, max: 3 }),
          Cg: fc.integer({ min: 1, max: 3 }),
          Og: fc.integer({ min: 1, max: 4 }),
          H: fc.integer({ min: 8, max: 16 }),
          W: fc.integer({ min: 8, max: 16 }),
          k: fc.integer({ min: 1, max: 4 }),
          stride: fc.integer({ min: 1, max: 2 }),
          dilation: fc.integer({ min: 1, max: 2 }),
          padding: fc.constantFrom<number | 'same'>(0, 1, 2, 'same'),
        }),
        (g) => {
          const stride = g.padding === 'same' ? 1 : g.stride;
          const C = g.Cg * g.groups;
          fc.pre(wasmSized(g.N, C, g.k * g.k, Math.floor((g.H - g.dilation * (g.k - 1) - 1) / stride + 1) ** 2));
          const x = randn([g.N, C, g.H, g.W]);
          const w = randn([g.Og * g.groups, g.Cg, g.k, g.k]);
          const b = randn([g.Og * g.groups]);
          const opts = { stride, padding: g.padding, dilation: g.dilation, groups: g.groups };
          const y2 = bothKernels(() => conv2d(x, w, b, opts));
          expectClose(y2.wasm, y2.ts, 1e-4, 1e-5 * Math.sqrt(g.Cg * g.k * g.k));
          const x1 = randn([g.N, C, g.W * 4]);
          const w1 = randn([g.Og * g.groups, g.Cg, g.k]);
          const y1 = bothKernels(() => conv1d(x1, w1, null, opts));
          expectClose(y1.wasm, y1.ts, 1e-4, 1e-5 * Math.sqrt(g.Cg * g.k));
        },
      ),
      { ...seeded, numRuns: 40 },
    );
  });

  it('property: max (with indices), average and adaptive pooling match the TypeScript kernels', () => {
    manualSeed(3);
    fc.assert(
      fc.property(
        fc.record({
          N: fc.integer({ min: 1, max: 2 }),
          C: fc.integer({ min: 1, max: 5 }),
          H: fc.integer({ min: 6, max: 24 }),
          W: fc.integer({ min: 6, max: 24 }),
          k: fc.integer({ min: 2, max: 4 }),
          stride: fc.integer({ min: 1, max: 3 }),
          pad: fc.integer({ min: 0, max: 1 }),
          ceilMode: fc.boolean(),
          strided: fc.boolean(),
        }),
        (g) => {
          fc.pre(wasmSized(g.N, g.C, g.k * g.k, Math.floor((Math.min(g.H, g.W) - g.k) / g.stride + 1) ** 2));
          const x = input([g.N, g.C, g.H, g.W], g.strided);
          const opts = { stride: g.stride, padding: g.pad, ceilMode: g.ceilMode };
          const max = bothKernels(() => maxPool2d(x, g.k, opts));
          expectIdentical(max.wasm, max.ts);
          const idx = bothKernels(() => maxPool2dWithIndices(x, g.k, opts).indices.to({ dtype: 'float32' }));
          expectIdentical(idx.wasm, idx.ts);
          const avg = bothKernels(() => avgPool2d(x, g.k, { ...opts, countIncludePad: g.strided }));
          expectClose(avg.wasm, avg.ts, 1e-6, 1e-6);
          const adaptive = bothKernels(() => adaptiveAvgPool2d(x, [3, 5]));
          expectClose(adaptive.wasm, adaptive.ts, 1e-5, 1e-6);
        },
      ),
      { ...seeded, numRuns: 30 },
    );
  });

  it('cuts the (n, c) planes into one range per pool thread: the same bits on 1, 2 and 3 threads (21 planes: 11 + 10, 7 + 7 + 7)', () => {
    manualSeed(5);
    const threads = getNumThreads();
    const x = input([3, 7, 48, 48], true);
    const c = randn([3, 7 * 25, 48 * 48]);
    const on = (n: number) => {
      setNumThreads(n);
      return [im2col(x, 5, { padding: 2 }), col2im(c, 48, 5, { padding: 2 })].map(
        (t) => t.toTypedArray() as Float32Array,
      );
    };
    try {
      const [cols, image] = on(1);
      for (const n of [2, 3]) {
        const [cols2, image2] = on(n);
        expectIdentical(cols2!, cols!);
        expectIdentical(image2!, image!);
      }
      const ts = bothKernels(() => im2col(x, 5, { padding: 2 }));
      expectIdentical(ts.wasm, ts.ts);
    } finally {
      setNumThreads(threads);
    }
  });

  it('a LeNet-sized batch (64x6x28x28, 5x5, padding 2; far above the wasm threshold) agrees', () => {
    manualSeed(4);
    const x = randn([64, 6, 28, 28]);
    const cols = bothKernels(() => im2col(x, 5, { padding: 2 }));
    expect(cols.wasm.length).toBe(64 * 6 * 25 * 784);
    expectIdentical(cols.wasm, cols.ts);
    const c = randn([64, 150, 784]);
    const image = bothKernels(() => col2im(c, 28, 5, { padding: 2 }));
    expectIdentical(image.wasm, image.ts);
  });
});
