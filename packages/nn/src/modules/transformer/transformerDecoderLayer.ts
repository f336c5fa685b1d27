import type { Tensor } from '@wiregrad/autograd';
import { Module } from '../../module.js';
import { MultiheadAttention } from '../attention/multiheadAttention.js';
import { Dropout } from '../dropout.js';
import { Linear } from '../linear.js';
import { LayerNorm } from '../normalization.js';
import { attentionBlock, feedForwardBlock, residual } from './transformerBlocks.js';
import { type TransformerLayerOptions, activationFn, copyInto, factory } from './transformerEncoderLayer.js';

export interface DecoderLayerForwardOptions {
  tgtMask?: Tensor | null;
  memoryMask?: Tensor | null;
  tgtKeyPaddingMask?: Tensor | null;
  memoryKeyPaddingMask?: Tensor | null;
}

/**
 * torch.nn.TransformerDecoderLayer: self-attention, attention over the encoder's memory, then a
 * feed-forward block, each with dropout and a residual sum, post-norm or pre-norm (normFirst).
 * Children and keys as PyTorch's: self_attn, multihead_attn, linear1, dropout, linear2, norm1..3, dropout1..3.
 */
export class TransformerDecoderLayer extends Module<[Tensor, Tensor, DecoderLayerForwardOptions?], Tensor> {
  self_attn: MultiheadAttention;
  multihead_attn: MultiheadAttention;
  linear1: Linear;
  dropout: Dropout;
  linear2: Linear;
  readonly normFirst: boolean;
  norm1: LayerNorm;
  norm2: LayerNorm;
  norm3: LayerNorm;
  dropout1: Dropout;
  dropout2: Dropout;
  dropout3: Dropout;
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
    this.multihead_attn = new MultiheadAttention(dModel, nhead, { dropout, batchFirst, ...factory(opts) });
    this.linear1 = new Linear(dModel, dimFeedforward, factory(opts));
    this.dropout = new Dropout(dropout);
    this.linear2 = new Linear(dimFeedforward, dModel, factory(opts));
    this.normFirst = opts.normFirst ?? false;
    const ln = () => new LayerNorm(dModel, { eps: layerNormEps, ...factory(opts) });
    this.norm1 = ln();
    this.norm2 = ln();
    this.norm3 = ln();
    this.dropout1 = new Dropout(dropout);
    this.dropout2 = new Dropout(dropout);
    this.dropout3 = new Dropout(dropout);
  }

  forward(tgt: Tensor, memory: Tensor, opts: DecoderLayerForwardOptions = {}): Tensor {
    const sa = (x: Tensor) => attentionBlock(this.self_attn, this.dropout1, x, x, opts.tgtMask, opts.tgtKeyPaddingMask);
    const mha = (x: Tensor) =>
      attentionBlock(this.multihead_attn, this.dropout2, x, memory, opts.memoryMask, opts.memoryKeyPaddingMask);
    const ff = (x: Tensor) => feedForwardBlock(this, this.dropout3, x);
    let x = residual(tgt, this.norm1, sa, this.normFirst);
    x = residual(x, this.norm2, mha, this.normFirst);
    return residual(x, this.norm3, ff, this.normFirst);
  }

  /** A deep copy (PyTorch's copy.deepcopy in _get_clones): same options, same values, same mode. */
  clone(): TransformerDecoderLayer {
    return copyInto(new TransformerDecoderLayer(this.dModel, this.nhead, this.opts), this);
  }
}
