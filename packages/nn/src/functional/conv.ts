// Convolutions of torch.nn.functional: the @wiregrad/tensor ops (im2col + matmul, Note [im2col]).
import {
  type ConvOptions,
  type Pair,
  type Tensor,
  col2im,
  conv1d as conv1dOp,
  conv2d as conv2dOp,
  im2col,
} from '@wiregrad/autograd';

export type { ConvOptions };

export function conv2d(x: Tensor, weight: Tensor, bias: Tensor | null = null, opts: ConvOptions = {}): Tensor {
  return conv2dOp(x, weight, bias, opts);
}

export function conv1d(
  x: Tensor,
  weight: Tensor,
  bias: Tensor | null = null,
  opts: { stride?: number; padding?: number | 'same' | 'valid'; dilation?: number; groups?: number } = {},
): Tensor {
  return conv1dOp(x, weight, bias, opts);
}

/** Sliding windows as columns: [N, C, H, W] -> [N, C·kh·kw, L] (torch.nn.functional.unfold). */
export function unfold(
  x: Tensor,
  kernelSize: Pair,
  opts: { dilation?: Pair; padding?: Pair; stride?: Pair } = {},
): Tensor {
  return im2col(x, kernelSize, opts);
}

/** Columns summed back into an image of `outputSize`: the adjoint of unfold (torch.nn.functional.fold). */
export function fold(
  cols: Tensor,
  outputSize: Pair,
  kernelSize: Pair,
  opts: { dilation?: Pair; padding?: Pair; stride?: Pair } = {},
): Tensor {
  return col2im(cols, outputSize, kernelSize, opts);
}
