import { type Tensor, noGrad, stack, tensor } from '@wiregrad/autograd';
import { peekGrad } from '@wiregrad/autograd/internal';
import { NnError } from '../errors.js';

const listOf = (parameters: Tensor | Iterable<Tensor>): Tensor[] =>
  'storage' in parameters ? [parameters as Tensor] : [...(parameters as Iterable<Tensor>)];

/** ‖t‖ of order `p` as a 0-dim tensor (inf: max |t|). */
function norm(t: Tensor, p: number): Tensor {
  const a = t.abs();
  if (p === Infinity) return a.numel === 0 ? tensor(0, { dtype: t.dtype }) : a.max();
  if (p === 2) return a.mul(a).sum().sqrt();
  if (p === 1) return a.sum();
  return a
    .pow(p)
    .sum()
    .pow(1 / p);
}

/**
 * torch.nn.utils.clip_grad_norm_: scales every gradient in place by maxNorm / (total + 1e-6)
 * when the total norm (the norm of the per-parameter norms) exceeds maxNorm; returns the
 * total norm before clipping. Parameters without a gradient are left out.
 */
export function clipGradNorm_(
  parameters: Tensor | Iterable<Tensor>,
  maxNorm: number,
  opts: { normType?: number; errorIfNonfinite?: boolean } = {},
): Tensor {
  const { normType = 2, errorIfNonfinite = false } = opts;
  if (typeof maxNorm !== 'number')
    throw new NnError('INVALID_ARGUMENT', `clipGradNorm_ expects maxNorm to be a number, got ${typeof maxNorm}`);
  // read without being seen: clipping keeps no gradient (Note [Gradients nobody else saw])
  const grads = listOf(parameters).flatMap((p) => peekGrad(p) ?? []);
  if (grads.length === 0) return tensor(0);
  return noGrad(() => {
    const dtype = grads[0]!.dtype;
    const device = grads[0]!.device;
    const norms = grads.map((g) => norm(g, normType).to({ dtype, device }));
    const total =
      normType === Infinity
        ? norms.length === 1
          ? norms[0]!
          : stack(norms, 0).max()
        : norm(stack(norms, 0), normType);
    const value = total.item();
    if (errorIfNonfinite && !Number.isFinite(value)) {
      throw new NnError(
        'INVALID_STATE',
        `The total norm of order ${normType.toFixed(1)} for gradients from \`parameters\` is non-finite, so it cannot be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set \`error_if_nonfinite=False\``,
      );
    }
    const coef = Math.min(maxNorm / (value + 1e-6), 1.0);
    for (const g of grads) g.mul_(coef);
    return total;
  });
}

/** torch.nn.utils.clip_grad_value_: clamps every gradient in place to [-clipValue, clipValue]. */
export function clipGradValue_(parameters: Tensor | Iterable<Tensor>, clipValue: number): void {
  if (typeof clipValue !== 'number')
    throw new NnError('INVALID_ARGUMENT', `clipGradValue_ expects clipValue to be a number, got ${typeof clipValue}`);
  noGrad(() => {
    for (const p of listOf(parameters)) peekGrad(p)?.clamp_(-clipValue, clipValue);
  });
}
