import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zeros } from '@wiregrad/autograd';
import { combine, finish } from './reduceOp.js';

const loopSum = (a: Float32Array | Float64Array, b: Float32Array | Float64Array) => {
  const out = a.slice();
  for (let i = 0; i < out.length; i++) out[i] = out[i]! + b[i]!;
  return out;
};

type Dtype = 'float32' | 'float64';

/** `n` zeros of `dtype`, in the cpu backend's memory (a tensor's storage) or a plain typed array. */
const floats = (dtype: Dtype, n: number, onTensorMemory: boolean) =>
  onTensorMemory
    ? (zeros([n], { dtype }).storage.data.subarray(0, n) as Float32Array | Float64Array)
    : new (dtype === 'float32' ? Float32Array : Float64Array)(n);

/** The same bits, element for element. */
const expectSameBits = (a: Float32Array | Float64Array, b: Float32Array | Float64Array) =>
  expect(Buffer.from(a.buffer, a.byteOffset, a.byteLength)).toEqual(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

describe('combine (Note [Fixed reduction order])', () => {
  it.each(['float32', 'float64'] as const)(
    'a %s sum on the kernels gives the bits of the one-add-per-element loop, in place, on tensor memory and plain arrays',
    (dtype) => {
      fc.assert(
        fc.property(
          fc.integer({ min: 4096, max: 9000 }),
          fc.integer({ min: 1, max: 2 ** 31 - 1 }),
          fc.boolean(),
          (n, seed, onTensorMemory) => {
            let s = seed;
            const next = () => ((s = (s * 48271) % 2147483647) / 2147483647 - 0.5) * 10 ** ((s % 9) - 4);
            const acc = floats(dtype, n, onTensorMemory);
            const x = floats(dtype, n, false);
            for (let i = 0; i < n; i++) [acc[i], x[i]] = [next(), next()];
            const expected = loopSum(acc, x);
            combine(acc, x, 'SUM');
            expectSameBits(acc, expected);
          },
        ),
        { numRuns: 20 },
      );
    },
  );

  it.each(['float32', 'float64'] as const)(
    "AVG's division on the kernels gives the bits of one IEEE division per element, for any number of ranks",
    (dtype) => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 9000 }),
          fc.integer({ min: 2, max: 7 }),
          fc.boolean(),
          (n, ranks, onTensorMemory) => {
            const acc = floats(dtype, n, onTensorMemory);
            for (let i = 0; i < n; i++) acc[i] = Math.sin(i * 7.1 + ranks) * 10 ** ((i % 9) - 4);
            const expected = acc.map((v) => v / ranks);
            finish(acc, 'AVG', ranks);
            expectSameBits(acc, expected);
          },
        ),
        { numRuns: 20 },
      );
    },
  );
});
