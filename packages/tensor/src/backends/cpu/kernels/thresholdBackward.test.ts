import { describe, expect, it } from 'vitest';
import * as K from '../../../kernelNames.js';
import { bothKernels } from '../wasm/__tests__/parity.js';
import { le, manualSeed, maskedFill, randn, runKernel1, tensor, type Tensor } from '../../../index.js';

const fused = (grad: Tensor, y: Tensor, threshold = 0) => runKernel1(K.ThresholdBackward, [grad, y], { threshold });
/** PyTorch's threshold_backward as two ops: 0 where y <= threshold. */
const unfused = (grad: Tensor, y: Tensor, threshold = 0) => maskedFill(grad, le(y, threshold), 0);

/** The first index where two arrays differ (bit for bit), -1 when none. */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

/** y with zeros, -0, negatives and NaN among its values. */
function reluOutputLike(shape: number[], dtype: 'float32' | 'float64' = 'float32'): Tensor {
  const y = randn(shape, { dtype });
  const data = y.storage.data;
  for (let i = 0; i < y.numel; i += 7) data[i] = i % 3 === 0 ? 0 : i % 3 === 1 ? -0 : NaN;
  return y;
}

describe('ThresholdBackward (PyTorch threshold_backward) equals the comparison and masked fill', () => {
  it.each([[[7]], [[64, 256]], [[3, 4099]], [[70_001]]])(
    'float32 %j: the SIMD and the TypeScript kernel, bit for bit',
    (shape) => {
      manualSeed(shape.length + shape[0]!);
      const [grad, y] = [randn(shape), reluOutputLike(shape)];
      const want = unfused(grad, y).toTypedArray();
      const { ts, wasm } = bothKernels(() => fused(grad, y));
      expect(firstDifference(ts, want)).toBe(-1);
      expect(firstDifference(wasm, want)).toBe(-1);
    },
  );

  it('passes the gradient where y is NaN and zeroes it where y is 0 or -0', () => {
    const got = fused(tensor([1, 2, 3, 4]), tensor([NaN, 0, -0, 5])).toTypedArray();
    expect(Array.from(got)).toEqual([1, 0, 0, 4]);
  });

  it.each([
    ['float64', 0],
    ['float32', 0.5],
    ['float64', -1],
  ] as const)('%s at threshold %d: the TypeScript pass', (dtype, threshold) => {
    manualSeed(3);
    const [grad, y] = [randn([5000], { dtype }), reluOutputLike([5000], dtype)];
    const got = fused(grad, y, threshold);
    expect(got.dtype).toBe(dtype);
    expect(firstDifference(got.toTypedArray(), unfused(grad, y, threshold).toTypedArray())).toBe(-1);
  });
});
