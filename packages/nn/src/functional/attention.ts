// torch.nn.functional.scaled_dot_product_attention and the masks the attention layers build.
import { type DeviceLike, type Tensor, arange, dropout, logicalNot, matmul, softmax, zeros } from '@wiregrad/autograd';
import { NnError } from '../errors.js';

export interface ScaledDotProductAttentionOptions {
  /**
   * [..., L, S], broadcast over the batch dims: a bool mask where true marks the pairs that take
   * part in attention, or a float mask added to the scores (-Infinity shuts a pair out)
   */
  attnMask?: Tensor | null;
  /** dropout on the attention weights; applied whenever > 0 (pass 0 in eval mode, as PyTorch) */
  dropoutP?: number;
  /** a lower-triangular mask: query i sees keys 0..i (no attnMask then) */
  isCausal?: boolean;
  /** the factor of the scores, 1/√E by default */
  scale?: number | null;
}

/** A bool [L, S] mask, true on and below the diagonal (torch.ones(L, S).tril()). */
export function causalMask(L: number, S: number, device?: DeviceLike): Tensor {
  const rows = arange(L, { dtype: 'int32', ...(device !== undefined && { device }) }).reshape([L, 1]);
  return rows.ge(arange(S, { dtype: 'int32', ...(device !== undefined && { device }) }).reshape([1, S]));
}

/** A float mask in `dtype`: 0 where `allowed` is true, -Infinity where it is false. */
export function additiveMask(allowed: Tensor, dtype: Tensor['dtype']): Tensor {
  return zeros([...allowed.shape], { dtype, device: allowed.device }).maskedFill(logicalNot(allowed), -Infinity);
}

/**
 * softmax(q kᵀ · scale + mask) v over query [..., L, E], key [..., S, E], value [..., S, Ev]
 * (PyTorch's math reference of scaled_dot_product_attention, with its bool-mask meaning: true
 * takes part). A query whose keys are all masked out gets NaN, as in PyTorch.
 */
export function scaledDotProductAttention(
  query: Tensor,
  key: Tensor,
  value: Tensor,
  opts: ScaledDotProductAttentionOptions = {},
): Tensor {
  const { attnMask = null, dropoutP = 0, isCausal = false } = opts;
  if (isCausal && attnMask !== null)
    throw new NnError('INVALID_ARGUMENT', 'Explicit attn_mask should not be set when is_causal=True');
  if (!(dropoutP >= 0 && dropoutP <= 1))
    throw new NnError('INVALID_ARGUMENT', `dropout probability has to be between 0 and 1, but got ${dropoutP}`);
  const L = query.shape.at(-2)!;
  const S = key.shape.at(-2)!;
  const scale = opts.scale ?? 1 / Math.sqrt(query.shape.at(-1)!);
  let scores = matmul(query.mul(scale), key.transpose(-2, -1));
  const mask = isCausal ? causalMask(L, S, query.device) : attnMask;
  if (mask !== null) scores = scores.add(mask.dtype === 'bool' ? additiveMask(mask, scores.dtype) : mask);
  let weights = softmax(scores, -1);
  if (dropoutP > 0) weights = dropout(weights, dropoutP, true);
  return matmul(weights, value);
}
