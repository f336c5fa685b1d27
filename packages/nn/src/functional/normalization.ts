import {
  type BatchNormOptions as TensorBatchNormOptions,
  type Tensor,
  batchNorm as batchNormOp,
  layerNorm as layerNormOp,
} from '@wiregrad/autograd';

/** torch.nn.functional.layer_norm over @wiregrad/tensor's layerNorm. */
export function layerNorm(
  x: Tensor,
  normalizedShape: readonly number[],
  weight: Tensor | null = null,
  bias: Tensor | null = null,
  eps = 1e-5,
): Tensor {
  return layerNormOp(x, normalizedShape, { weight, bias, eps });
}

/** torch.nn.functional.batch_norm's keywords: the tensor op's, and its weight and bias. */
export interface BatchNormOptions extends TensorBatchNormOptions {
  weight?: Tensor | null;
  bias?: Tensor | null;
}

/** torch.nn.functional.batch_norm over @wiregrad/tensor's batchNorm (See Note [Batch norm]). */
export function batchNorm(
  x: Tensor,
  runningMean: Tensor | null,
  runningVar: Tensor | null,
  opts: BatchNormOptions = {},
): Tensor {
  const { weight = null, bias = null, ...rest } = opts;
  return batchNormOp(x, weight, bias, runningMean, runningVar, rest);
}
