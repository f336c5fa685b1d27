// Pooling of torch.nn.functional: the @wiregrad/tensor ops (windows from im2col, Note [im2col]).
import {
  type AvgPoolOptions,
  type MaxPoolOptions,
  type Pair,
  type Tensor,
  adaptiveAvgPool2d as adaptiveAvgPool2dOp,
  avgPool2d as avgPool2dOp,
  maxPool2d as maxPool2dOp,
  maxPool2dWithIndices,
} from '@wiregrad/autograd';

export type { AvgPoolOptions, MaxPoolOptions };

/** Max over each window; with `returnIndices` also the flat index (ih·W + iw) of each maximum, as PyTorch. */
export function maxPool2d(x: Tensor, kernelSize: Pair, opts?: MaxPoolOptions & { returnIndices?: false }): Tensor;
export function maxPool2d(
  x: Tensor,
  kernelSize: Pair,
  opts: MaxPoolOptions & { returnIndices: true },
): [Tensor, Tensor];
export function maxPool2d(
  x: Tensor,
  kernelSize: Pair,
  opts: MaxPoolOptions & { returnIndices?: boolean } = {},
): Tensor | [Tensor, Tensor] {
  if (!opts.returnIndices) return maxPool2dOp(x, kernelSize, opts);
  const { values, indices } = maxPool2dWithIndices(x, kernelSize, opts);
  return [values, indices];
}

export function avgPool2d(x: Tensor, kernelSize: Pair, opts: AvgPoolOptions = {}): Tensor {
  return avgPool2dOp(x, kernelSize, opts);
}

export function adaptiveAvgPool2d(x: Tensor, outputSize: number | readonly [number | null, number | null]): Tensor {
  return adaptiveAvgPool2dOp(x, outputSize);
}
