import type { Tensor } from '@wiregrad/autograd';
import type { MultiheadAttention } from '../attention/multiheadAttention.js';
import type { Dropout } from '../dropout.js';
import type { Linear } from '../linear.js';
import type { LayerNorm } from '../normalization.js';

/**
 * PyTorch's _sa_block and _mha_block of the transformer layers: attention of `query` over
 * `memory` (the query itself for self-attention) without its weights, then `drop`.
 */
export function attentionBlock(
  attention: MultiheadAttention,
  drop: Dropout,
  query: Tensor,
  memory: Tensor,
  attnMask: Tensor | null | undefined,
  keyPaddingMask: Tensor | null | undefined,
): Tensor {
  const [out] = attention.forward(query, memory, memory, {
    attnMask: attnMask ?? null,
    keyPaddingMask: keyPaddingMask ?? null,
    needWeights: false,
  });
  return drop.forward(out);
}

/** The feed-forward sublayers of a transformer layer (its children linear1, dropout, linear2). */
export interface FeedForward {
  readonly linear1: Linear;
  readonly dropout: Dropout;
  readonly linear2: Linear;
  readonly activation: (x: Tensor) => Tensor;
}

/** PyTorch's _ff_block: linear2(dropout(activation(linear1(x)))), then `drop`. */
export function feedForwardBlock(layer: FeedForward, drop: Dropout, x: Tensor): Tensor {
  return drop.forward(layer.linear2.forward(layer.dropout.forward(layer.activation(layer.linear1.forward(x)))));
}

/** One residual sublayer: `x + block(norm(x))` with normFirst (pre-norm), else `norm(x + block(x))` (PyTorch's default). */
export function residual(x: Tensor, norm: LayerNorm, block: (x: Tensor) => Tensor, normFirst: boolean): Tensor {
  return normFirst ? x.add(block(norm.forward(x))) : norm.forward(x.add(block(x)));
}
