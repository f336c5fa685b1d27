import { type Tensor, cat, full, tensor } from '@wiregrad/autograd';
import { NnError } from '../errors.js';

/** PyTorch's adaptive windows of one dim: [floor(i·size/out), ceil((i+1)·size/out)). */
const windowsOf = (out: number, size: number): [number, number][] =>
  Array.from({ length: out }, (_, i) => [Math.floor((i * size) / out), Math.ceil(((i + 1) * size) / out)]);

/**
 * torch.nn.functional.adaptive_max_pool2d: the maximum of each of PyTorch's adaptive windows,
 * [N, C, H, W] (or [C, H, W]) -> [N, C, oh, ow] (null keeps that dim's size); with
 * `returnIndices` also the flat index (ih·W + iw) of each maximum, the first in scan order.
 * Each window's elements are gathered (indexSelect, padded with one -inf element to the largest
 * window's size) and reduced with max, so the gradient goes to each maximum as PyTorch's.
 */
export function adaptiveMaxPool2d(
  x: Tensor,
  outputSize: number | readonly [number | null, number | null],
  opts?: { returnIndices?: false },
): Tensor;
export function adaptiveMaxPool2d(
  x: Tensor,
  outputSize: number | readonly [number | null, number | null],
  opts: { returnIndices: true },
): [Tensor, Tensor];
export function adaptiveMaxPool2d(
  x: Tensor,
  outputSize: number | readonly [number | null, number | null],
  opts: { returnIndices?: boolean } = {},
): Tensor | [Tensor, Tensor] {
  if ((x.ndim !== 3 && x.ndim !== 4) || x.shape.some((s, d) => d > 0 && s === 0))
    throw new NnError(
      'INVALID_SHAPE',
      `adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [${x.shape.join(', ')}]`,
    );
  const batched = x.ndim === 4;
  const x4 = batched ? x : x.unsqueeze(0);
  const [N, C, H, W] = x4.shape as [number, number, number, number];
  const req = typeof outputSize === 'number' ? [outputSize, outputSize] : outputSize;
  const [oh, ow] = [req[0] ?? H, req[1] ?? W];
  if (!(Number.isInteger(oh) && Number.isInteger(ow) && oh > 0 && ow > 0))
    throw new NnError(
      'INVALID_ARGUMENT',
      `adaptive_max_pool2d: output size must be positive integers, got [${oh}, ${ow}]`,
    );
  const rows = windowsOf(oh, H);
  const colsW = windowsOf(ow, W);
  const kmax = Math.max(...rows.map(([a, b]) => b - a)) * Math.max(...colsW.map(([a, b]) => b - a));
  const pad = H * W; // the index of the appended -inf element
  const gather = new Int32Array(oh * ow * kmax).fill(pad);
  rows.forEach(([h0, h1], i) =>
    colsW.forEach(([w0, w1], j) => {
      let k = (i * ow + j) * kmax;
      for (let h = h0; h < h1; h++) for (let w = w0; w < w1; w++) gather[k++] = h * W + w;
    }),
  );
  const index = tensor(Array.from(gather), { dtype: 'int32', device: x.device });
  const plane = cat([x4.reshape([N, C, H * W]), full([N, C, 1], -Infinity, { dtype: x.dtype, device: x.device })], 2);
  const { values, indices } = plane
    .indexSelect(2, index)
    .reshape([N, C, oh * ow, kmax])
    .max(3);
  const out = values.reshape([N, C, oh, ow]);
  const unbatch = (t: Tensor) => (batched ? t : t.squeeze(0));
  if (!opts.returnIndices) return unbatch(out);
  const local = indices.toTypedArray();
  const flat = new Int32Array(local.length);
  for (let e = 0; e < local.length; e++) flat[e] = gather[(e % (oh * ow)) * kmax + local[e]!]!;
  const flatIndices = tensor(Array.from(flat), { dtype: 'int32', device: x.device }).reshape([N, C, oh, ow]);
  return [unbatch(out), unbatch(flatIndices)];
}
