// Pointwise losses of torch.nn.functional, as compositions of differentiable tensor ops.
import {
  Function as AutogradFunction,
  type FunctionCtx,
  type Tensor,
  abs,
  clamp,
  exp,
  gt,
  log,
  mul,
  sub,
  where,
} from '@wiregrad/autograd';
import { NnError } from '../errors.js';
import { type Reduction, applyReduction, checkSameSize, lossArgs } from './reduction.js';

export interface ReductionOptions {
  reduction?: Reduction;
}

/** (x - y)² */
export function mseLoss(input: Tensor, target: Tensor, opts: ReductionOptions = {}): Tensor {
  const reduction = lossArgs('mse_loss', input, target, opts.reduction);
  const d = sub(input, target);
  return applyReduction(d.mul(d), reduction);
}

/** |x - y| */
export function l1Loss(input: Tensor, target: Tensor, opts: ReductionOptions = {}): Tensor {
  return applyReduction(abs(sub(input, target)), lossArgs('l1_loss', input, target, opts.reduction));
}

/** 0.5 d² / beta where |d| < beta, else |d| - 0.5 beta (beta = 0: l1). */
export function smoothL1Loss(input: Tensor, target: Tensor, opts: ReductionOptions & { beta?: number } = {}): Tensor {
  const reduction = lossArgs('smooth_l1_loss', input, target, opts.reduction);
  const beta = opts.beta ?? 1.0;
  if (beta < 0) throw new NnError('INVALID_ARGUMENT', 'smooth_l1_loss does not support negative values for beta.');
  const z = abs(sub(input, target));
  if (beta === 0) return applyReduction(z, reduction);
  return applyReduction(where(z.lt(beta), z.mul(z).mul(0.5 / beta), z.sub(0.5 * beta)), reduction);
}

/** 0.5 d² where |d| < delta, else delta (|d| - 0.5 delta). */
export function huberLoss(input: Tensor, target: Tensor, opts: ReductionOptions & { delta?: number } = {}): Tensor {
  const reduction = lossArgs('huber_loss', input, target, opts.reduction);
  const delta = opts.delta ?? 1.0;
  if (!(delta > 0)) throw new NnError('INVALID_ARGUMENT', 'huber_loss does not support non-positive values for delta.');
  const z = abs(sub(input, target));
  return applyReduction(where(z.lt(delta), z.mul(z).mul(0.5), z.sub(0.5 * delta).mul(delta)), reduction);
}

/**
 * PyTorch's binary_cross_entropy kernel and its derivative: forward -(y log x + (1 - y) log(1 - x))
 * with each log clamped to >= -100 (x = 0 or 1 gives a finite loss); backward
 * g (x - y) / max(x (1 - x), ε), finite at x = 0 and 1 where the chain rule through the
 * clamped logs would give NaN. No gradient for the target, as in PyTorch.
 */
/** PyTorch's EPSILON of the BCE derivative, 1e-12 as the float it is stored as (x = 0, y = 1 gives -1.0000000040e12). */
const BCE_EPSILON = Math.fround(1e-12);

class BinaryCrossEntropy extends AutogradFunction {
  static override forward(ctx: FunctionCtx, input: Tensor, target: Tensor): Tensor {
    ctx.saveForBackward(input, target);
    return mul(target, clamp(log(input), -100))
      .add(mul(sub(1, target), clamp(log(sub(1, input)), -100)))
      .neg();
  }

  static override backward(ctx: FunctionCtx, g: Tensor): (Tensor | null)[] {
    const [x, y] = ctx.savedTensors as [Tensor, Tensor];
    return [g.mul(x.sub(y)).div(clamp(sub(1, x).mul(x), BCE_EPSILON)), null];
  }
}

/** -w (y log x + (1 - y) log(1 - x)) over probabilities in [0, 1] (values outside are refused, as in PyTorch). */
export function binaryCrossEntropy(
  input: Tensor,
  target: Tensor,
  opts: ReductionOptions & { weight?: Tensor | null } = {},
): Tensor {
  const reduction = lossArgs('binary_cross_entropy', input, target, opts.reduction);
  checkSameSize(
    input,
    target,
    (t, i) =>
      `Using a target size (${t}) that is different to the input size (${i}) is deprecated. Please ensure they have the same size.`,
  );
  if (input.numel > 0 && !(input.detach().min().item() >= 0 && input.detach().max().item() <= 1)) {
    throw new NnError('INVALID_ARGUMENT', 'all elements of input should be between 0 and 1');
  }
  let loss = BinaryCrossEntropy.apply<Tensor>(input, target);
  if (opts.weight) loss = loss.mul(opts.weight);
  return applyReduction(loss, reduction);
}

/**
 * Sigmoid + binary cross entropy in one numerically stable expression (PyTorch 1.13's):
 * (1 - y) x + (1 + (posWeight - 1) y) (log(e^-m + e^(-x-m)) + m), m = max(-x, 0).
 */
export function binaryCrossEntropyWithLogits(
  input: Tensor,
  target: Tensor,
  opts: ReductionOptions & { weight?: Tensor | null; posWeight?: Tensor | null } = {},
): Tensor {
  const reduction = lossArgs('binary_cross_entropy_with_logits', input, target, opts.reduction);
  checkSameSize(input, target, (t, i) => `Target size (${t}) must be the same as input size (${i})`);
  const m = clamp(input.neg(), 0);
  const lse = log(exp(m.neg()).add(exp(input.neg().sub(m)))).add(m);
  const logWeight = opts.posWeight ? opts.posWeight.sub(1).mul(target).add(1) : null;
  let loss = sub(1, target)
    .mul(input)
    .add(logWeight ? logWeight.mul(lse) : lse);
  if (opts.weight) loss = loss.mul(opts.weight);
  return applyReduction(loss, reduction);
}

export type KlDivReduction = Reduction | 'batchmean';

/**
 * Kullback-Leibler divergence of `target` from `input` (log-probabilities):
 * y (log y - x), 0 where y = 0; with logTarget, e^y (y - x). 'batchmean' divides the sum by
 * the batch size (PyTorch's recommended reduction; 'mean' averages over every element).
 */
export function klDiv(
  input: Tensor,
  target: Tensor,
  opts: { reduction?: KlDivReduction; logTarget?: boolean } = {},
): Tensor {
  const r = opts.reduction ?? 'mean';
  const reduction = lossArgs('kl_div', input, target, r === 'batchmean' ? 'sum' : r);
  let out: Tensor;
  if (opts.logTarget) {
    out = exp(target).mul(sub(target, input));
  } else {
    const positive = gt(target, 0);
    const xlogy = where(positive, target.mul(log(where(positive, target, 1))), 0);
    out = xlogy.sub(target.mul(input));
  }
  if (r === 'batchmean') return input.ndim === 0 ? out.sum() : out.sum().div(input.shape[0]!);
  return applyReduction(out, reduction);
}
