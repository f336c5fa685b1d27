import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { arange, col2im, conv1d, conv2d, im2col, memory, ones, randn, tensor, type Tensor } from '../index.js';

/** The definition, looped in float64 over tolist() values: out[n][o][i][j] = b[o] + Σ w[o][c][ki][kj] · x[n][g·Cg + c][i·s - p + ki·d][...]. */
function naiveConv(
  x: Tensor,
  w: Tensor,
  b: Tensor | null,
  s: [number, number],
  p: [number, number, number, number],
  d: [number, number],
  groups: number,
): number[][][][] {
  const X = x.tolist() as number[][][][];
  const Wt = w.tolist() as number[][][][];
  const B = b ? (b.tolist() as number[]) : null;
  const [N, , H, W] = x.shape as number[];
  const [O, Cg, kh, kw] = w.shape as number[];
  const oh = Math.floor((H! + p[0] + p[1] - d[0] * (kh! - 1) - 1) / s[0]) + 1;
  const ow = Math.floor((W! + p[2] + p[3] - d[1] * (kw! - 1) - 1) / s[1]) + 1;
  const perGroup = O! / groups;
  return Array.from({ length: N! }, (_, n) =>
    Array.from({ length: O! }, (_, o) =>
      Array.from({ length: oh }, (_, i) =>
        Array.from({ length: ow }, (_, j) => {
          let acc = B ? B[o]! : 0;
          for (let c = 0; c < Cg!; c++) {
            for (let ki = 0; ki < kh!; ki++) {
              for (let kj = 0; kj < kw!; kj++) {
                const ih = i * s[0] - p[0] + ki * d[0];
                const iw = j * s[1] - p[2] + kj * d[1];
                if (ih >= 0 && ih < H! && iw >= 0 && iw < W!)
                  acc += Wt[o]![c]![ki]![kj]! * X[n]![Math.floor(o / perGroup) * Cg! + c]![ih]![iw]!;
              }
            }
          }
          return acc;
        }),
      ),
    ),
  );
}

const flat = (v: unknown): number[] => (Array.isArray(v) ? v.flatMap(flat) : [v as number]);

describe('im2col / col2im (Note [im2col])', () => {
  it('im2col puts each window in a column, rows ordered (c, ki, kj); padding reads padValue', () => {
    const x = arange(9).reshape([1, 1, 3, 3]).to('float64');
    expect(im2col(x, 2).tolist()).toEqual([
      [
        [0, 1, 3, 4],
        [1, 2, 4, 5],
        [3, 4, 6, 7],
        [4, 5, 7, 8],
      ],
    ]);
    expect(im2col(x, [1, 2], { stride: [2, 1], padding: [0, 1], padValue: -1 }).tolist()).toEqual([
      [
        [-1, 0, 1, 2, -1, 6, 7, 8],
        [0, 1, 2, -1, 6, 7, 8, -1],
      ],
    ]);
  });

  it('col2im is the adjoint of im2col: <im2col(x), c> = <x, col2im(c)> for any geometry', () => {
    fc.assert(
      fc.property(
        fc.record({
          h: fc.integer({ min: 2, max: 7 }),
          w: fc.integer({ min: 2, max: 7 }),
          k: fc.integer({ min: 1, max: 2 }),
          s: fc.integer({ min: 1, max: 3 }),
          p: fc.integer({ min: 0, max: 1 }),
          d: fc.integer({ min: 1, max: 2 }),
        }),
        ({ h, w, k, s, p, d }) => {
          fc.pre(Math.min(h, w) + 2 * p >= d * (k - 1) + 1);
          const x = randn([2, 3, h, w], { dtype: 'float64' });
          const cols = im2col(x, k, { stride: s, padding: p, dilation: d });
          const c = randn([...cols.shape], { dtype: 'float64' });
          const lhs = cols.mul(c).sum().item();
          const rhs = x
            .mul(col2im(c, [h, w], k, { stride: s, padding: p, dilation: d }))
            .sum()
            .item();
          expect(lhs).toBeCloseTo(rhs, 9);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('col2im of ones counts the windows covering each position', () => {
    const cols = im2col(ones([1, 1, 3, 3], { dtype: 'float64' }), 2);
    expect(col2im(cols, 3, 2).tolist()).toEqual([
      [
        [
          [1, 2, 1],
          [2, 4, 2],
          [1, 2, 1],
        ],
      ],
    ]);
  });
});

describe('conv2d / conv1d', () => {
  it.each([
    ['plain', [2, 3, 5, 6], [4, 3, 3, 2], {}, [1, 1], [0, 0, 0, 0], [1, 1], 1],
    ['stride and padding', [1, 2, 7, 5], [3, 2, 3, 3], { stride: 2, padding: 1 }, [2, 2], [1, 1, 1, 1], [1, 1], 1],
    ['dilation', [1, 2, 7, 7], [2, 2, 3, 2], { dilation: [2, 3] }, [1, 1], [0, 0, 0, 0], [2, 3], 1],
    ['groups', [2, 4, 4, 4], [6, 2, 2, 2], { groups: 2, padding: [1, 0] }, [1, 1], [1, 1, 0, 0], [1, 1], 2],
    [
      "'same' with an even kernel (asymmetric padding)",
      [1, 2, 5, 5],
      [2, 2, 2, 4],
      { padding: 'same' },
      [1, 1],
      [0, 1, 1, 2],
      [1, 1],
      1,
    ],
  ] as const)('%s: the definition, in float64 and in float32', (_n, xs, ws, opts, s, p, d, groups) => {
    const x = randn([...xs], { dtype: 'float64' });
    const w = randn([...ws], { dtype: 'float64' });
    const b = randn([ws[0]], { dtype: 'float64' });
    const want = naiveConv(x, w, b, [...s], [...p], [...d], groups);
    expect(flat(conv2d(x, w, b, opts).tolist())).toEqual(flat(want).map((v) => expect.closeTo(v, 10)));
    expect(flat(conv2d(x.to('float32'), w.to('float32'), b.to('float32'), opts).tolist())).toEqual(
      flat(want).map((v) => expect.closeTo(v, 4)),
    );
  });

  it('holds no storage once its result is disposed: its columns, product and pre-bias result are released', () => {
    const x = randn([2, 3, 16, 16]);
    const w = randn([4, 3, 3, 3]);
    const b = randn([4]);
    for (const bias of [null, b]) {
      const before = memory();
      conv2d(x, w, bias, { padding: 1 }).dispose();
      const after = memory();
      expect([after.tensors, after.cpuBytes]).toEqual([before.tensors, before.cpuBytes]);
    }
  });

  it('an unbatched input gives an unbatched output; conv1d is conv2d over a height of 1', () => {
    const x = randn([3, 5, 5]);
    expect(conv2d(x, randn([2, 3, 3, 3])).shape).toEqual([2, 3, 3]);
    const x1 = randn([2, 3, 8], { dtype: 'float64' });
    const w1 = randn([4, 3, 3], { dtype: 'float64' });
    expect(flat(conv1d(x1, w1, null, { stride: 2, padding: 1 }).tolist())).toEqual(
      flat(conv2d(x1.unsqueeze(2), w1.unsqueeze(2), null, { stride: [1, 2], padding: [0, 1] }).tolist()).map((v) =>
        expect.closeTo(v, 12),
      ),
    );
  });

  it("checks its arguments with PyTorch's messages", () => {
    const w = randn([8, 3, 3, 3]);
    expect(() => conv2d(randn([2, 3]), w)).toThrow(
      'Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [2, 3]',
    );
    expect(() => conv2d(randn([2, 4, 5, 5]), w)).toThrow(
      'Given groups=1, weight of size [8, 3, 3, 3], expected input[2, 4, 5, 5] to have 3 channels, but got 4 channels instead',
    );
    expect(() => conv2d(randn([2, 3, 2, 2]), w)).toThrow(
      "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't be greater than actual input size",
    );
    expect(() => conv2d(randn([2, 4, 5, 5]), randn([3, 2, 3, 3]), null, { groups: 2 })).toThrow(
      'Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of size [[3, 2, 3, 3]] instead',
    );
    expect(() => conv2d(randn([2, 3, 5, 5]), w, null, { stride: 2, padding: 'same' })).toThrow(
      "padding='same' is not supported for strided convolutions",
    );
    expect(() => conv2d(randn([2, 3, 5, 5]), w, null, { padding: 'foo' as never })).toThrow(
      "Invalid padding string: 'foo'",
    );
    expect(() => conv2d(randn([2, 3, 5, 5]), w, randn([7]))).toThrow(
      'Given weight of size [8, 3, 3, 3], expected bias to be 1-dimensional with 8 elements, but got bias of size [7] instead',
    );
    expect(() => conv2d(randn([2, 3, 5, 5]), w, null, { stride: 0 })).toThrow('non-positive stride is not supported');
    expect(() => conv1d(randn([2, 3, 5, 5]), randn([8, 3, 3]))).toThrow(
      'Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [2, 3, 5, 5]',
    );
    expect(() => im2col(tensor([[[[1]]]], { dtype: 'int32' }), 1)).toThrow(
      expect.objectContaining({ code: 'DTYPE_MISMATCH' }),
    );
  });
});
