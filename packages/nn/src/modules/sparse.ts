import { type Tensor, noGrad } from '@wiregrad/autograd';
import { NnError } from '../errors.js';
import { type FactoryOptions, emptyParameter, placeOnDevice } from '../factory.js';
import { embedding } from '../functional/sparse.js';
import { normal_ } from '../init.js';
import { Module } from '../module.js';
import type { Parameter } from '../parameter.js';

/** A lookup table [numEmbeddings, embeddingDim], N(0, 1) as PyTorch; the paddingIdx row is zeros and gets no gradient. */
export class Embedding extends Module {
  weight: Parameter;
  readonly paddingIdx: number | null;

  constructor(
    readonly numEmbeddings: number,
    readonly embeddingDim: number,
    opts: { paddingIdx?: number } & FactoryOptions = {},
  ) {
    super();
    let pad = opts.paddingIdx ?? null;
    if (pad !== null) {
      if (pad >= numEmbeddings || pad < -numEmbeddings)
        throw new NnError('INVALID_ARGUMENT', 'Padding_idx must be within num_embeddings');
      if (pad < 0) pad += numEmbeddings;
    }
    this.paddingIdx = pad;
    this.weight = emptyParameter([numEmbeddings, embeddingDim], opts);
    this.resetParameters();
    placeOnDevice(this, opts);
  }

  resetParameters(): void {
    normal_(this.weight);
    if (this.paddingIdx !== null) noGrad(() => this.weight.select(0, this.paddingIdx!).zero_());
  }

  forward(input: Tensor): Tensor {
    return embedding(input, this.weight, { paddingIdx: this.paddingIdx });
  }

  override extraRepr(): string {
    return `${this.numEmbeddings}, ${this.embeddingDim}${this.paddingIdx !== null ? `, padding_idx=${this.paddingIdx}` : ''}`;
  }
}
