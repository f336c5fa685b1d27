import { type Pair, type Tensor, cat, col2im, matmul, zeros } from '@wiregrad/autograd';
import { NnError } from '../errors.js';

export interface ConvTransposeOptions<P = Pair> {
  stride?: P;
  padding?: P;
  outputPadding?: P;
  groups?: number;
  dilation?: P;
}

const pairOf = (v: Pair): [number, number] => (typeof v === 'number' ? [v, v] : [v[0], v[1]]);

/** Zero rows (dim 2) or columns (dim 3) appended to [N, C, H, W]. */
const padEnd = (t: Tensor, dim: 2 | 3, n: number): Tensor =>
  n <= 0
    ? t
    : cat(
        [
          t,
          zeros(
            t.shape.map((s, d) => (d === dim ? n : s)),
            { dtype: t.dtype, device: t.device },
          ),
        ],
        dim,
      );

/**
 * Note [Transposed convolution]
 * torch.nn.functional.conv_transpose2d, the adjoint of conv2d (its gradient in the input):
 * each group's input channels are multiplied by the weight [Cin, Cout/groups, kh, kw] into
 * columns [N, Cout/groups·kh·kw, H·W], and col2im sums the columns into the full output
 * ((H - 1)·stride + dilation·(kh - 1) + 1 rows, no padding); then `padding` rows are cropped
 * from each side and `outputPadding` rows added at the bottom (zeros past the full output).
 * Output size: (H - 1)·stride - 2·padding + dilation·(kh - 1) + outputPadding + 1. Composed of
 * matmul, col2im, cat and narrow, so autograd differentiates it.
 */
export function convTranspose2d(
  x: Tensor,
  weight: Tensor,
  bias: Tensor | null = null,
  opts: ConvTransposeOptions = {},
): Tensor {
  if (x.ndim !== 3 && x.ndim !== 4)
    throw new NnError(
      'INVALID_SHAPE',
      `Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got input of size: [${x.shape.join(', ')}]`,
    );
  if (weight.ndim !== 4)
    throw new NnError(
      'INVALID_SHAPE',
      `conv_transpose2d expects a weight [Cin, Cout/groups, kh, kw], got [${weight.shape.join(', ')}]`,
    );
  const batched = x.ndim === 4;
  const x4 = batched ? x : x.unsqueeze(0);
  const [N, Cin, H, W] = x4.shape as [number, number, number, number];
  const groups = opts.groups ?? 1;
  const [wIn, coutG, kh, kw] = weight.shape as [number, number, number, number];
  if (wIn !== Cin || Cin % groups !== 0)
    throw new NnError(
      'INVALID_SHAPE',
      `Given transposed=1, weight of size [${weight.shape.join(', ')}], expected input[${x4.shape.join(', ')}] to have ${wIn} channels, but got ${Cin} channels instead`,
    );
  const stride = pairOf(opts.stride ?? 1);
  const padding = pairOf(opts.padding ?? 0);
  const outputPadding = pairOf(opts.outputPadding ?? 0);
  const dilation = pairOf(opts.dilation ?? 1);
  if (outputPadding.some((op, i) => op >= stride[i]! && op >= dilation[i]!))
    throw new NnError(
      'INVALID_ARGUMENT',
      `output padding must be smaller than either stride or dilation, but got output_padding_height: ${outputPadding[0]} output_padding_width: ${outputPadding[1]} stride_height: ${stride[0]} stride_width: ${stride[1]} dilation_height: ${dilation[0]} dilation_width: ${dilation[1]}`,
    );
  const cinG = Cin / groups;
  const full = [(H - 1) * stride[0] + dilation[0] * (kh - 1) + 1, (W - 1) * stride[1] + dilation[1] * (kw - 1) + 1];
  const out = [full[0]! - 2 * padding[0] + outputPadding[0], full[1]! - 2 * padding[1] + outputPadding[1]] as const;
  if (out[0] < 1 || out[1] < 1)
    throw new NnError('INVALID_SHAPE', `conv_transpose2d: the output size ${out[0]}x${out[1]} is too small`);
  const flat = x4.reshape([N, Cin, H * W]);
  const columns = Array.from({ length: groups }, (_, g) => {
    const wg = weight.narrow(0, g * cinG, cinG).reshape([cinG, coutG * kh * kw]);
    return matmul(wg.t(), flat.narrow(1, g * cinG, cinG));
  });
  const cols = groups === 1 ? columns[0]! : cat(columns, 1);
  let y = col2im(cols, full as [number, number], [kh, kw], { stride, dilation });
  y = padEnd(padEnd(y, 2, padding[0] + out[0] - full[0]!), 3, padding[1] + out[1] - full[1]!);
  y = y.narrow(2, padding[0], out[0]).narrow(3, padding[1], out[1]);
  if (bias) y = y.add(bias.reshape([1, coutG * groups, 1, 1]));
  return batched ? y : y.squeeze(0);
}

/** torch.nn.functional.conv_transpose1d: conv_transpose2d over [N, C, 1, L] with a 1 × k weight. */
export function convTranspose1d(
  x: Tensor,
  weight: Tensor,
  bias: Tensor | null = null,
  opts: ConvTransposeOptions<number> = {},
): Tensor {
  if (x.ndim !== 2 && x.ndim !== 3)
    throw new NnError(
      'INVALID_SHAPE',
      `Expected 2D (unbatched) or 3D (batched) input to conv_transpose1d, but got input of size: [${x.shape.join(', ')}]`,
    );
  if (weight.ndim !== 3)
    throw new NnError(
      'INVALID_SHAPE',
      `conv_transpose1d expects a weight [Cin, Cout/groups, k], got [${weight.shape.join(', ')}]`,
    );
  const { stride = 1, padding = 0, outputPadding = 0, groups = 1, dilation = 1 } = opts;
  const y = convTranspose2d(x.unsqueeze(-2), weight.unsqueeze(2), bias, {
    stride: [1, stride],
    padding: [0, padding],
    outputPadding: [0, outputPadding],
    groups,
    dilation: [1, dilation],
  });
  return y.squeeze(-2);
}
