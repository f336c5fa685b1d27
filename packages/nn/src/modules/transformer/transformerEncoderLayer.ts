import type { Tensor } from '@wiregrad/autograd';
import { NnError } from '../../errors.js';
import type { FactoryOptions } from '../../factory.js';
import { gelu, relu } from '../../functional/activation.js';
import { Module } from '../../module.js';
import { MultiheadAttention } from '../attention/multiheadAttention.js';
import { Dropout } from '../dropout.js';
import { Linear } from '../linear.js';
import { LayerNorm } from '../normalization.js';
import { attentionBlock, feedForwardBlock, residual } from './transformerBlocks.js';

export type TransformerActivation = 'relu' | 'gelu' | ((x: Tensor) => Tensor);

/** The options of TransformerEncoderLayer and TransformerDecoderLayer (PyTorch's keyword arguments). */
export interface TransformerLayerOptions extends FactoryOptions {
  dimFeedforward?: number;
  dropout?: number;
  activation?: TransformerActivation;
  layerNormEps?: number;
  batchFirst?: boolean;
  /** LayerNorm before each block (pre-norm) instead of after each residual sum */
  normFirst?: boolean;
}

export function activationFn(a: TransformerActivation): (x: Tensor) => Tensor {
  if (typeof a === 'function') return a;
  if (a === 'relu') return relu;
  if (a === 'gelu') return gelu;
  throw new NnError('INVALID_ARGUMENT', `activation should be relu/gelu, not ${String(a)}`);
}

export interface EncoderLayerForwardOptions {
  srcMask?: Tensor | null;
  srcKeyPaddingMask?: Tensor | null;
}

/**
 * torch.nn.TransformerEncoderLayer: self-attention then a feed-forward block, each with dropout and a
 * residual sum, post-norm (PyTorch's default) or pre-norm with normFirst. Children and state dict keys
 * as PyTorch's: self_attn, linear1, dropout, linear2, norm1, norm2, dropout1, dropout2.
 */
export class TransformerEncoderLayer extends Module<[Tensor, EncoderLayerForwardOptions?], Tensor> {
  self_attn: MultiheadAttention;
  linear1: Linear;
  dropout: Dropout;
  linear2: Linear;
  readonly normFirst: boolean;
  norm1: LayerNorm;
  norm2: LayerNorm;
  dropout1: Dropout;
  dropout2: Dropout;
  readonly activation: (x: Tensor) => Tensor;

  constructor(
    readonly dModel: number,
    readonly nhead: number,
    readonly opts: TransformerLayerOptions = {},
  ) {
    super();
    const { dimFeedforward = 2048, dropout = 0.1, layerNormEps = 1e-5, batchFirst = false } = opts;
    this.activation = activationFn(opts.activation ?? 'relu');
    this.self_attn = new MultiheadAttention(dModel, nhead, { dropout, batchFirst, ...factory(opts) });
    this.linear1 = new Linear(dModel, dimFeedforward, factory(opts));
    this.dropout = new Dropout(dropout);
    this.linear2 = new Linear(dimFeedforward, dModel, factory(opts));
    this.normFirst = opts.normFirst ?? false;
    this.norm1 = new LayerNorm(dModel, { eps: layerNormEps, ...factory(opts) });
    this.norm2 = new LayerNorm(dModel, { eps: layerNormEps, ...factory(opts) });
    this.dropout1 = new Dropout(dropout);
    this.dropout2 = new Dropout(dropout);
  }

  forward(src: Tensor, opts: EncoderLayerForwardOptions = {}): Tensor {
    const sa = (x: Tensor) => attentionBlock(this.self_attn, this.dropout1, x, x, opts.srcMask, opts.srcKeyPaddingMask);
    const ff = (x: Tensor) => feedForwardBlock(this, this.dropout2, x);
    const x = residual(src, this.norm1, sa, this.normFirst);
    return residual(x, this.norm2, ff, this.normFirst);
  }

  /** A deep copy (PyTorch's copy.deepcopy in _get_clones): same options, same values, same mode. */
  clone(): TransformerEncoderLayer {
    return copyInto(new TransformerEncoderLayer(this.dModel, this.nhead, this.opts), this);
  }
}

/** The dtype and device of a layer's factory options, for its sublayers. */
export const factory = (o: FactoryOptions): FactoryOptions => ({
  ...(o.dtype !== undefined && { dtype: o.dtype }),
  ...(o.device !== undefined && { device: o.device }),
});

/** Copies `from`'s state and training mode into the fresh `to` (built with the same options); returns `to`. */
export function copyInto<M extends Module<never[], unknown>>(to: M, from: Module<never[], unknown>): M {
  const sd = from.stateDict();
  to.to({ dtype: Object.values(sd)[0]!.dtype, device: Object.values(sd)[0]!.device });
  to.loadStateDict(sd);
  for (const [[, a], [, b]] of to.namedModules().map((e, i) => [e, from.namedModules()[i]!] as const))
    a.training = b.training;
  return to;
}
