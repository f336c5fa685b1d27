import { type Tensor, noGrad } from '@wiregrad/autograd';
import { NnError, pyFloat } from '../errors.js';
import { type FactoryOptions, emptyParameter, placeOnDevice } from '../factory.js';
import { embedding } from '../functional/sparse.js';
import { normal_ } from '../init.js';
import { Module } from '../module.js';
import type { Parameter } from '../parameter.js';

/**
 * A lookup table [numEmbeddings, embeddingDim], N(0, 1) as PyTorch; the paddingIdx row is zeros and
 * gets no gradient. With `maxNorm`, each looked-up row is first renormalised in place to a
 * normType-norm of at most maxNorm (See functional embedding).
 */
export class Embedding extends Module {
  weight: Parameter;
  readonly paddingIdx: number | null;
  readonly maxNorm: number | null;
  readonly normType: number;

  constructor(
    readonly numEmbeddings: number,
    readonly embeddingDim: number,
    opts: { paddingIdx?: number; maxNorm?: number | null; normType?: number } & FactoryOptions = {},
  ) {
    super();
    let pad = opts.paddingIdx ?? null;
    if (pad !== null) {
      if (pad >= numEmbeddings || pad < -numEmbeddings)
        throw new NnError('INVALID_ARGUMENT', 'Padding_idx must be within num_embeddings');
      if (pad < 0) pad += numEmbeddings;
    }
    this.paddingIdx = pad;
    this.maxNorm = opts.maxNorm ?? null;
    this.normType = opts.normType ?? 2;
    this.weight = emptyParameter([numEmbeddings, embeddingDim], opts);
    this.resetParameters();
    placeOnDevice(this, opts);
  }

  resetParameters(): void {
    normal_(this.weight);
    if (this.paddingIdx !== null) noGrad(() => this.weight.select(0, this.paddingIdx!).zero_());
  }

  forward(input: Tensor): Tensor {
    return embedding(input, this.weight, {
      paddingIdx: this.paddingIdx,
      maxNorm: this.maxNorm,
      normType: this.normType,
    });
  }

  override extraRepr(): string {
    let s = `${this.numEmbeddings}, ${this.embeddingDim}`;
    if (this.paddingIdx !== null) s += `, padding_idx=${this.paddingIdx}`;
    if (this.maxNorm !== null) s += `, max_norm=${pyFloat(this.maxNorm)}`;
    if (this.normType !== 2) s += `, norm_type=${this.normType === Infinity ? 'inf' : pyFloat(this.normType)}`;
    return s;
  }
}
