import {
  Function,
  type FunctionCtx,
  Tensor,
  type TypedArray,
  eq,
  isGradEnabled,
  maskedFill,
  oneHot,
  softmax,
} from '@wiregrad/autograd';
import type { Reduction } from './reduction.js';

/**
 * Note [Fused cross-entropy]
 * cross_entropy of logits [N, C] and int32 class indices [N] (no class weights, no label
 * smoothing), the loss of nearly every classifier, runs as one custom Function instead of
 * log_softmax, gather, maskedFill and the reduction (about ten kernels forward and as many
 * backward nodes, each a pass and a temporary): forward is one pass per row (its max, its
 * log-sum-exp l, the loss l - x[y]), kept l per row; backward is one pass, the softmax minus
 * the one-hot target, (exp(x - l) - [j = y]) · g / count, which is what PyTorch's
 * log_softmax and nll_loss backwards compute between them. Both run in float64 and round
 * once (the composite rounds after each op), on contiguous cpu float32/float64 logits;
 * everything else runs the composite. A backward that builds a graph (createGraph) composes
 * the same gradient from differentiable ops, so double backward still works.
 */
export function canFuseCrossEntropy(input: Tensor, target: Tensor): boolean {
  return (
    input.ndim === 2 &&
    input.device.type === 'cpu' &&
    (input.dtype === 'float32' || input.dtype === 'float64') &&
    target.dtype === 'int32' &&
    target.ndim === 1 &&
    target.shape[0] === input.shape[0]
  );
}

interface CrossEntropyCtx extends FunctionCtx {
  logSumExp: Float64Array;
  count: number;
  reduction: Reduction;
  ignoreIndex: number;
}

/** The rows' values, contiguous. */
function rowsOf(x: Tensor): TypedArray {
  const c = x.contiguous();
  return c.storage.data.subarray(c.offset, c.offset + c.numel);
}

class CrossEntropyLoss extends Function {
  // its backward keeps nothing: the engine releases dlogits once consumed (Note [Functions whose gradients the engine owns])
  static override engineOwnsGrads = true;

  static override forward(
    ctx: CrossEntropyCtx,
    input: Tensor,
    target: Tensor,
    reduction: Reduction,
    ignoreIndex: number,
  ): Tensor {
    const [N, C] = input.shape as [number, number];
    const x = rowsOf(input);
    const y = rowsOf(target);
    const lse = new Float64Array(N);
    const losses = Tensor.uninitialized([N], input.dtype);
    const out = losses.storage.data;
    let total = 0;
    let count = 0;
    for (let i = 0; i < N; i++) {
      const row = i * C;
      let max = -Infinity;
      for (let j = 0; j < C; j++) max = Math.max(max, x[row + j]!);
      let sum = 0;
      for (let j = 0; j < C; j++) sum += Math.exp(x[row + j]! - max);
      lse[i] = max + Math.log(sum);
      const t = y[i]!;
      const loss = t === ignoreIndex ? 0 : lse[i]! - x[row + t]!;
      out[i] = loss;
      total += loss;
      if (t !== ignoreIndex) count++;
    }
    ctx.logSumExp = lse;
    ctx.count = count;
    ctx.reduction = reduction;
    ctx.ignoreIndex = ignoreIndex;
    ctx.saveForBackward(input, target);
    if (reduction === 'none') return losses;
    losses.dispose();
    return Tensor.fromTypedArray(Float64Array.of(reduction === 'sum' ? total : total / count), [], 'float64').to({
      dtype: input.dtype,
    });
  }

  static override backward(ctx: CrossEntropyCtx, grad: Tensor): (Tensor | null)[] {
    // one entry per forward argument: only the logits have a gradient
    const [input, target] = ctx.savedTensors as [Tensor, Tensor];
    const [N, C] = input.shape as [number, number];
    const scale = ctx.reduction === 'mean' ? 1 / ctx.count : 1;
    if (isGradEnabled()) {
      // createGraph: the same gradient from differentiable ops
      const ignored = eq(target, ctx.ignoreIndex);
      const picked = oneHot(maskedFill(target, ignored, 0), C).to({ dtype: input.dtype });
      const rows = ctx.reduction === 'none' ? grad.unsqueeze(1) : grad.mul(scale);
      return [maskedFill(softmax(input, 1).sub(picked), ignored.unsqueeze(1), 0).mul(rows), null, null, null];
    }
    const x = rowsOf(input);
    const y = rowsOf(target);
    const g = rowsOf(grad);
    const dx = Tensor.uninitialized([N, C], input.dtype);
    const out = dx.storage.data;
    for (let i = 0; i < N; i++) {
      const row = i * C;
      const t = y[i]!;
      const gi = t === ctx.ignoreIndex ? 0 : (ctx.reduction === 'none' ? g[i]! : g[0]!) * scale;
      const l = ctx.logSumExp[i]!;
      for (let j = 0; j < C; j++) out[row + j] = (Math.exp(x[row + j]! - l) - (j === t ? 1 : 0)) * gi;
    }
    return [dx, null, null, null];
  }
}

/** cross_entropy in one pass each way (Note [Fused cross-entropy]); check canFuseCrossEntropy first. */
export function fusedCrossEntropy(input: Tensor, target: Tensor, reduction: Reduction, ignoreIndex: number): Tensor {
  return CrossEntropyLoss.apply<Tensor>(input, target, reduction, ignoreIndex);
}
