import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memory, randn, tensor, type Tensor } from '../index.js';

// See Note [In-place fast path]: float32 add_, sub_, mul_ and div_ write x in place; these specs hold
// them to the out-of-place op's values (the same IEEE operations, so bit for bit).
type Op = 'add' | 'sub' | 'mul' | 'div';
const inPlace: Record<Op, (x: Tensor, y: Tensor | number) => Tensor> = {
  add: (x, y) => x.add_(y),
  sub: (x, y) => x.sub_(y),
  mul: (x, y) => x.mul_(y),
  div: (x, y) => x.div_(y),
};
const outOfPlace: Record<Op, (x: Tensor, y: Tensor | number) => Tensor> = {
  add: (x, y) => x.add(y),
  sub: (x, y) => x.sub(y),
  mul: (x, y) => x.mul(y),
  div: (x, y) => x.div(y),
};

/** Sizes around the paths: TypeScript loop, wasm with a scalar tail, wasm memory, the pool. */
const SIZES = [7, 4096 + 3, 20_001, 70_000, 270_001];

/** The first index where two arrays differ (bit for bit), -1 when none: quicker than toEqual on 270k floats. */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

describe('in-place fast path', () => {
  it('gives the out-of-place values for every size, op and kind of operand', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SIZES),
        fc.constantFrom<Op>('add', 'sub', 'mul', 'div'),
        fc.constantFrom('tensor', 'number', 'scalarTensor', 'row'),
        (n, op, kind) => {
          const cols = kind === 'row' ? 12 : n;
          const rows = kind === 'row' ? Math.ceil(n / 12) : 1;
          const x = randn(kind === 'row' ? [rows, cols] : [n]);
          const y =
            kind === 'number' ? 0.75 : kind === 'scalarTensor' ? tensor(1.5) : randn(kind === 'row' ? [cols] : [n]);
          const expected = outOfPlace[op](x, y).toTypedArray();
          expect(inPlace[op](x, y)).toBe(x);
          expect(firstDifference(x.toTypedArray(), expected)).toBe(-1);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('applies alpha as add(x, y, { alpha }) does', () => {
    for (const n of SIZES) {
      const x = randn([n]);
      const y = randn([n]);
      const added = x.add(y, { alpha: -0.01 }).toTypedArray();
      const subtracted = x.sub(y, { alpha: 3 }).toTypedArray();
      expect(firstDifference(x.clone().add_(y, { alpha: -0.01 }).toTypedArray(), added)).toBe(-1);
      expect(firstDifference(x.sub_(y, { alpha: 3 }).toTypedArray(), subtracted)).toBe(-1);
      // a y broadcast as a row, and an x on a buffer of its own (not in wasm memory)
      const grid = randn([Math.ceil(n / 12), 12]);
      const row = randn([12]);
      const rowSum = grid.add(row, { alpha: 0.3 }).toTypedArray();
      expect(firstDifference(grid.add_(row, { alpha: 0.3 }).toTypedArray(), rowSum)).toBe(-1);
      const own = tensor(Float32Array.from(y.toTypedArray()));
      const ownSum = own.add(x, { alpha: -0.01 }).toTypedArray();
      expect(firstDifference(own.add_(x, { alpha: -0.01 }).toTypedArray(), ownSum)).toBe(-1);
    }
  });

  it('writes only the view: neighbours in its storage keep their values', () => {
    for (const n of SIZES) {
      const base = randn([3, n]);
      const before = base.toTypedArray();
      const middle = base.select(0, 1);
      middle.add_(randn([n]));
      const after = base.toTypedArray();
      expect(firstDifference(after.subarray(0, n), before.subarray(0, n))).toBe(-1);
      expect(firstDifference(after.subarray(2 * n), before.subarray(2 * n))).toBe(-1);
      expect(firstDifference(after.subarray(n, 2 * n), before.subarray(n, 2 * n))).not.toBe(-1);
    }
  });

  it('reads x as its own operand (x.add_(x)) and keeps overlapping operands correct', () => {
    for (const n of SIZES) {
      const x = randn([n]);
      const doubled = x.mul(2).toTypedArray();
      expect(firstDifference(x.add_(x).toTypedArray(), doubled)).toBe(-1);
      const base = randn([n + 1]);
      const head = base.narrow(0, 0, n);
      const shifted = base.narrow(0, 1, n);
      const sum = head.add(shifted).toTypedArray();
      expect(firstDifference(head.add_(shifted).toTypedArray(), sum)).toBe(-1);
    }
  });

  it('allocates no result (alpha included) and bumps the version once per op', () => {
    const x = randn([1 << 20]);
    const y = randn([1 << 20]);
    const before = memory();
    x.add_(y).mul_(y).sub_(0.5).div_(y).add_(y, { alpha: -0.01 });
    const after = memory();
    expect(after.cpuCacheHits + after.cpuCacheMisses).toBe(before.cpuCacheHits + before.cpuCacheMisses);
    expect(after.tensors).toBe(before.tensors);
    expect(x.version).toBe(5);
  });
});
