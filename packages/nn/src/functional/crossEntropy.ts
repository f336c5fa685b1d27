import {
  type Tensor,
  eq,
  gather,
  indexSelect,
  isFloatingPoint,
  logSoftmax,
  maskedFill,
  zerosLike,
} from '@wiregrad/autograd';
import { NnError, shapeText } from '../errors.js';
import { canFuseCrossEntropy, fusedCrossEntropy } from './fusedCrossEntropy.js';
import { type Reduction, lossArgs } from './reduction.js';

export interface NllLossOptions {
  /** a weight per class [C] */
  weight?: Tensor | null;
  /** targets equal to it contribute nothing (and do not count in the mean); default -100 */
  ignoreIndex?: number;
  reduction?: Reduction;
}

/**
 * Moves the class dim (1) last and flattens: [N, C, d1, ...] -> [N·d1·..., C], target -> [N·d1·...].
 * A 1-D input [C] is one sample with a 0-dim target.
 */
function flattenClasses(input: Tensor, target: Tensor): { x: Tensor; y: Tensor; outShape: number[] } {
  if (input.ndim === 0) throw new NnError('INVALID_SHAPE', 'input tensor should be 1D or 2D');
  if (input.ndim === 1) {
    if (target.ndim !== 0)
      throw new NnError('INVALID_SHAPE', '0D or 1D target tensor expected, multi-target not supported');
    return { x: input.unsqueeze(0), y: target.reshape([1]), outShape: [] };
  }
  const [N, C] = input.shape as [number, number];
  const rest = input.shape.slice(2);
  if (target.shape[0] !== N)
    throw new NnError(
      'INVALID_SHAPE',
      `Expected input batch_size (${N}) to match target batch_size (${target.shape[0] ?? 0}).`,
    );
  const expected = [N, ...rest];
  if (target.ndim !== expected.length || target.shape.some((s, i) => s !== expected[i])) {
    if (rest.length === 0)
      throw new NnError('INVALID_SHAPE', '0D or 1D target tensor expected, multi-target not supported');
    throw new NnError(
      'INVALID_SHAPE',
      `Expected target size [${expected.join(', ')}], got [${target.shape.join(', ')}]`,
    );
  }
  if (rest.length === 0) return { x: input, y: target, outShape: [N] };
  const perm = [0, ...rest.map((_, i) => i + 2), 1];
  return { x: input.permute(perm).reshape([-1, C]), y: target.reshape([-1]), outShape: expected };
}

/** Class weights must be one per class (PyTorch's message). */
function checkWeight(weight: Tensor | null | undefined, C: number): void {
  if (weight && (weight.ndim !== 1 || weight.numel !== C)) {
    throw new NnError(
      'INVALID_SHAPE',
      `weight tensor should be defined either for all ${C} classes or no classes but got weight tensor of shape: [${weight.shape.join(', ')}]`,
    );
  }
}

/** Class indices are int32, in [0, C) or ignoreIndex (PyTorch's message). */
function checkTargets(y: Tensor, C: number, ignoreIndex: number): void {
  if (y.dtype !== 'int32')
    throw new NnError('INVALID_ARGUMENT', `expected int32 class indices as target, got ${y.dtype}`);
  for (const t of y.toTypedArray()) {
    if (t !== ignoreIndex && (t < 0 || t >= C)) throw new NnError('INVALID_ARGUMENT', `Target ${t} is out of bounds.`);
  }
}

/**
 * Note [nll_loss]
 * PyTorch's nll_loss over log-probabilities [N, C, d...] and class indices [N, d...]:
 * l = -w[y] x[y], 0 where y = ignoreIndex; 'mean' divides the sum by the total weight of the
 * targets that are not ignored (so all-ignored gives NaN, as in PyTorch), 'sum' sums, 'none'
 * keeps [N, d...]. Composed of gather/indexSelect/maskedFill, so its gradient needs no rule.
 */
export function nllLoss(input: Tensor, target: Tensor, opts: NllLossOptions = {}): Tensor {
  const reduction = lossArgs('nll_loss', input, target, opts.reduction);
  const ignoreIndex = opts.ignoreIndex ?? -100;
  const { x, y, outShape } = flattenClasses(input, target);
  const C = x.shape[1]!;
  checkTargets(y, C, ignoreIndex);
  checkWeight(opts.weight, C);
  const ignored = eq(y, ignoreIndex);
  const safe = maskedFill(y, ignored, 0);
  const picked = gather(x, 1, safe.unsqueeze(1)).reshape([-1]);
  const w = opts.weight
    ? maskedFill(indexSelect(opts.weight.to(x.dtype), 0, safe), ignored, 0)
    : maskedFill(zerosLike(picked).add(1), ignored, 0);
  const losses = picked.mul(w).neg();
  if (reduction === 'none') return losses.reshape(outShape);
  if (reduction === 'sum') return losses.sum();
  return losses.sum().div(w.sum());
}

export interface CrossEntropyOptions extends NllLossOptions {
  /** mixes the target with the uniform distribution: (1 - ε) target + ε / C; default 0 */
  labelSmoothing?: number;
}

/**
 * log-softmax over dim 1, then the negative log-likelihood: `target` holds int32 class indices
 * ([N, d...]) or, when it has the input's shape and a floating dtype, class probabilities.
 * PyTorch 1.13's formulas for class weights, ignoreIndex and labelSmoothing in both forms.
 */
export function crossEntropy(input: Tensor, target: Tensor, opts: CrossEntropyOptions = {}): Tensor {
  const reduction = lossArgs('cross_entropy', input, target, opts.reduction);
  const eps = opts.labelSmoothing ?? 0;
  if (!(eps >= 0 && eps <= 1))
    throw new NnError('INVALID_ARGUMENT', `label_smoothing must be between 0.0 and 1.0. Got: ${eps}`);
  const classDim = input.ndim === 1 ? 0 : 1;
  const C = input.shape[classDim] ?? 0;
  if (eps === 0 && !opts.weight && canFuseCrossEntropy(input, target)) {
    const ignoreIndex = opts.ignoreIndex ?? -100;
    checkTargets(target, C, ignoreIndex);
    return fusedCrossEntropy(input, target, reduction, ignoreIndex);
  }
  const logp = logSoftmax(input, classDim);
  const weightView = opts.weight
    ? opts.weight.to(input.dtype).reshape(input.shape.map((s, d) => (d === classDim ? s : 1)))
    : null;

  const isProbs =
    isFloatingPoint(target.dtype) && target.ndim === input.ndim && target.shape.every((s, i) => s === input.shape[i]);
  if (isProbs) {
    checkWeight(opts.weight, C);
    const t = eps > 0 ? target.mul(1 - eps).add(eps / C) : target;
    let prod = logp.mul(t);
    if (weightView) prod = prod.mul(weightView);
    if (reduction === 'none') return prod.sum(classDim).neg();
    if (reduction === 'sum') return prod.sum().neg();
    return prod
      .sum()
      .neg()
      .div(input.numel / C);
  }
  if (isFloatingPoint(target.dtype)) {
    throw new NnError(
      'INVALID_SHAPE',
      `cross_entropy expects int32 class indices, or probabilities of the input's shape ${shapeText(input.shape)}; got ${target.dtype} ${shapeText(target.shape)}`,
    );
  }
  const nll = nllLoss(logp, target, { ...opts, reduction });
  if (eps === 0) return nll;

  const ignoreIndex = opts.ignoreIndex ?? -100;
  const ignored = eq(target, ignoreIndex);
  const smooth = maskedFill((weightView ? logp.mul(weightView) : logp).sum(classDim).neg(), ignored, 0);
  let ret: Tensor;
  if (reduction === 'none') ret = smooth;
  else if (reduction === 'sum') ret = smooth.sum();
  else if (opts.weight)
    ret = smooth
      .sum()
      .div(
        maskedFill(
          indexSelect(opts.weight.to(input.dtype), 0, maskedFill(target, ignored, 0).reshape([-1])),
          ignored.reshape([-1]),
          0,
        ).sum(),
      );
  else ret = smooth.sum().div(ignored.logicalNot().to(input.dtype).sum());
  return nll.mul(1 - eps).add(ret.mul(eps / C));
}
