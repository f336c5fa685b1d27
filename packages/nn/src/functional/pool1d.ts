// 1-d pooling of torch.nn.functional: the 2-d ops over [N, C, 1, L] with a 1 × k window.
import type { Tensor } from '@wiregrad/autograd';
import { NnError } from '../errors.js';
import { avgPool2d, maxPool2d } from './pooling.js';

export interface Pool1dOptions {
  /** default: the kernel size */
  stride?: number;
  padding?: number;
  ceilMode?: boolean;
}

/** [N, C, L] or [C, L] as [N, C, 1, L] or [C, 1, L]; the inverse on the way out. */
function asPlane(x: Tensor, op: string): Tensor {
  if (x.ndim !== 2 && x.ndim !== 3)
    throw new NnError('INVALID_SHAPE', `${op}() Expected 2D or 3D input tensor, but got [${x.shape.join(', ')}]`);
  return x.unsqueeze(-2);
}

/** Max over each window of [N, C, L] (or [C, L]); `returnIndices` gives each maximum's position in L, as PyTorch. */
export function maxPool1d(
  x: Tensor,
  kernelSize: number,
  opts?: Pool1dOptions & { dilation?: number; returnIndices?: false },
): Tensor;
export function maxPool1d(
  x: Tensor,
  kernelSize: number,
  opts: Pool1dOptions & { dilation?: number; returnIndices: true },
): [Tensor, Tensor];
export function maxPool1d(
  x: Tensor,
  kernelSize: number,
  opts: Pool1dOptions & { dilation?: number; returnIndices?: boolean } = {},
): Tensor | [Tensor, Tensor] {
  const { stride = kernelSize, padding = 0, dilation = 1, ceilMode = false } = opts;
  const o = { stride: [1, stride], padding: [0, padding], dilation: [1, dilation], ceilMode } as const;
  const plane = asPlane(x, 'max_pool1d');
  if (!opts.returnIndices) return maxPool2d(plane, [1, kernelSize], o).squeeze(-2);
  const [values, indices] = maxPool2d(plane, [1, kernelSize], { ...o, returnIndices: true });
  return [values.squeeze(-2), indices.squeeze(-2)];
}

/** The mean of each window of [N, C, L] (or [C, L]); `countIncludePad` (default true) counts the zero padding. */
export function avgPool1d(
  x: Tensor,
  kernelSize: number,
  opts: Pool1dOptions & { countIncludePad?: boolean } = {},
): Tensor {
  const { stride = kernelSize, padding = 0, ceilMode = false, countIncludePad = true } = opts;
  return avgPool2d(asPlane(x, 'avg_pool1d'), [1, kernelSize], {
    stride: [1, stride],
    padding: [0, padding],
    ceilMode,
    countIncludePad,
  }).squeeze(-2);
}
