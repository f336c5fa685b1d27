import type { Tensor } from '@wiregrad/autograd';
import { additiveMask, causalMask } from '../../functional/attention.js';
import { NnError } from '../../errors.js';
import { xavierUniform_ } from '../../init.js';
import { Module } from '../../module.js';
import { ModuleList } from '../container.js';
import { LayerNorm } from '../normalization.js';
import { type DecoderLayerForwardOptions, TransformerDecoderLayer } from './transformerDecoderLayer.js';
import { type TransformerLayerOptions, TransformerEncoderLayer, factory } from './transformerEncoderLayer.js';

export interface EncoderForwardOptions {
  mask?: Tensor | null;
  srcKeyPaddingMask?: Tensor | null;
}

/** torch.nn.TransformerEncoder: numLayers deep copies of `encoderLayer` (keys `layers.0.…`), then `norm` if given. */
export class TransformerEncoder extends Module<[Tensor, EncoderForwardOptions?], Tensor> {
  layers: ModuleList<TransformerEncoderLayer>;
  norm: LayerNorm | null;

  constructor(
    encoderLayer: TransformerEncoderLayer,
    readonly numLayers: number,
    opts: { norm?: LayerNorm | null } = {},
  ) {
    super();
    this.layers = new ModuleList(Array.from({ length: numLayers }, () => encoderLayer.clone()));
    this.norm = opts.norm ?? null;
  }

  forward(src: Tensor, opts: EncoderForwardOptions = {}): Tensor {
    let x = src;
    for (let i = 0; i < this.layers.length; i++)
      x = this.layers
        .at(i)!
        .forward(x, { srcMask: opts.mask ?? null, srcKeyPaddingMask: opts.srcKeyPaddingMask ?? null });
    return this.norm ? this.norm.forward(x) : x;
  }
}

/** torch.nn.TransformerDecoder: numLayers deep copies of `decoderLayer` (keys `layers.0.…`), then `norm` if given. */
export class TransformerDecoder extends Module<[Tensor, Tensor, DecoderLayerForwardOptions?], Tensor> {
  layers: ModuleList<TransformerDecoderLayer>;
  norm: LayerNorm | null;

  constructor(
    decoderLayer: TransformerDecoderLayer,
    readonly numLayers: number,
    opts: { norm?: LayerNorm | null } = {},
  ) {
    super();
    this.layers = new ModuleList(Array.from({ length: numLayers }, () => decoderLayer.clone()));
    this.norm = opts.norm ?? null;
  }

  forward(tgt: Tensor, memory: Tensor, opts: DecoderLayerForwardOptions = {}): Tensor {
    let x = tgt;
    for (let i = 0; i < this.layers.length; i++) x = this.layers.at(i)!.forward(x, memory, opts);
    return this.norm ? this.norm.forward(x) : x;
  }
}

export interface TransformerOptions extends TransformerLayerOptions {
  numEncoderLayers?: number;
  numDecoderLayers?: number;
  customEncoder?: Module<[Tensor, EncoderForwardOptions?], Tensor> | null;
  customDecoder?: Module<[Tensor, Tensor, DecoderLayerForwardOptions?], Tensor> | null;
}

export interface TransformerForwardOptions {
  srcMask?: Tensor | null;
  tgtMask?: Tensor | null;
  memoryMask?: Tensor | null;
  srcKeyPaddingMask?: Tensor | null;
  tgtKeyPaddingMask?: Tensor | null;
  memoryKeyPaddingMask?: Tensor | null;
}

/**
 * torch.nn.Transformer: an encoder and a decoder of `numEncoderLayers` / `numDecoderLayers` layers,
 * each stack closed by a LayerNorm (keys `encoder.norm.weight`, ...); every parameter with more than
 * one dimension re-drawn xavier-uniform, as PyTorch's _reset_parameters.
 */
export class Transformer extends Module<[Tensor, Tensor, TransformerForwardOptions?], Tensor> {
  encoder: Module<[Tensor, EncoderForwardOptions?], Tensor>;
  decoder: Module<[Tensor, Tensor, DecoderLayerForwardOptions?], Tensor>;
  readonly batchFirst: boolean;

  constructor(
    readonly dModel = 512,
    readonly nhead = 8,
    opts: TransformerOptions = {},
  ) {
    super();
    const { numEncoderLayers = 6, numDecoderLayers = 6, customEncoder, customDecoder, ...layerOpts } = opts;
    const ln = () => new LayerNorm(dModel, { eps: opts.layerNormEps ?? 1e-5, ...factory(opts) });
    this.encoder =
      customEncoder ??
      new TransformerEncoder(new TransformerEncoderLayer(dModel, nhead, layerOpts), numEncoderLayers, { norm: ln() });
    this.decoder =
      customDecoder ??
      new TransformerDecoder(new TransformerDecoderLayer(dModel, nhead, layerOpts), numDecoderLayers, { norm: ln() });
    this.batchFirst = opts.batchFirst ?? false;
    this.resetParameters();
  }

  resetParameters(): void {
    for (const p of this.parameters()) if (p.ndim > 1) xavierUniform_(p);
  }

  /** src [S, N, E] and tgt [T, N, E] ([N, ·, E] with batchFirst, or unbatched [·, E]); returns [T, N, E]. */
  forward(src: Tensor, tgt: Tensor, opts: TransformerForwardOptions = {}): Tensor {
    const b = this.batchFirst ? 0 : 1;
    if (src.ndim === 3 && src.shape[b] !== tgt.shape[b])
      throw new NnError('INVALID_SHAPE', 'the batch number of src and tgt must be equal');
    if (src.shape.at(-1) !== this.dModel || tgt.shape.at(-1) !== this.dModel)
      throw new NnError('INVALID_SHAPE', 'the feature number of src and tgt must be equal to d_model');
    const memory = this.encoder.forward(src, {
      mask: opts.srcMask ?? null,
      srcKeyPaddingMask: opts.srcKeyPaddingMask ?? null,
    });
    return this.decoder.forward(tgt, memory, {
      tgtMask: opts.tgtMask ?? null,
      memoryMask: opts.memoryMask ?? null,
      tgtKeyPaddingMask: opts.tgtKeyPaddingMask ?? null,
      memoryKeyPaddingMask: opts.memoryKeyPaddingMask ?? null,
    });
  }

  /** A float [sz, sz] mask: -Infinity above the diagonal, 0 on and below it (PyTorch's static method). */
  static generateSquareSubsequentMask(sz: number, opts: { dtype?: Tensor['dtype'] } = {}): Tensor {
    return additiveMask(causalMask(sz, sz), opts.dtype ?? 'float32');
  }
}
