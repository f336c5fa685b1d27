import { type Tensor, zeros } from '@wiregrad/autograd';
import { NnError } from '../../errors.js';
import { type FactoryOptions, emptyParameter, placeOnDevice } from '../../factory.js';
import { type CellWeights, type RnnNonlinearity, gruCell, lstmCell, rnnCell } from '../../functional/rnn.js';
import { uniform_ } from '../../init.js';
import { Module } from '../../module.js';
import type { Parameter } from '../../parameter.js';

export interface RnnCellOptions extends FactoryOptions {
  bias?: boolean;
}

/**
 * torch.nn.RNNCellBase: weight_ih [chunks·H, in], weight_hh [chunks·H, H], bias_ih and bias_hh
 * [chunks·H] (absent without bias), all from U(±1/√H). Inputs are [N, in] or one unbatched [in].
 */
export abstract class RNNCellBase<State, Out> extends Module<[Tensor, State?], Out> {
  weight_ih: Parameter;
  weight_hh: Parameter;
  bias_ih: Parameter | null;
  bias_hh: Parameter | null;
  readonly bias: boolean;

  constructor(
    readonly inputSize: number,
    readonly hiddenSize: number,
    numChunks: number,
    opts: RnnCellOptions,
  ) {
    super();
    this.bias = opts.bias ?? true;
    this.weight_ih = emptyParameter([numChunks * hiddenSize, inputSize], opts);
    this.weight_hh = emptyParameter([numChunks * hiddenSize, hiddenSize], opts);
    this.bias_ih = this.bias ? emptyParameter([numChunks * hiddenSize], opts) : null;
    this.bias_hh = this.bias ? emptyParameter([numChunks * hiddenSize], opts) : null;
    this.resetParameters();
    placeOnDevice(this, opts);
  }

  resetParameters(): void {
    const stdv = 1 / Math.sqrt(this.hiddenSize);
    for (const p of this.parameters()) uniform_(p, -stdv, stdv);
  }

  protected get weights(): CellWeights {
    return { wIh: this.weight_ih, wHh: this.weight_hh, bIh: this.bias_ih, bHh: this.bias_hh };
  }

  /** Batches an unbatched input and its states, and checks sizes with ATen's messages; returns whether it was batched. */
  protected prepare(input: Tensor, states: (Tensor | undefined)[]): [Tensor, Tensor[], boolean] {
    if (input.ndim !== 1 && input.ndim !== 2)
      throw new NnError(
        'INVALID_SHAPE',
        `${this.constructor.name}: Expected input to be 1-D or 2-D but received ${input.ndim}-D tensor`,
      );
    const batched = input.ndim === 2;
    const x = batched ? input : input.unsqueeze(0);
    if (x.shape[1] !== this.inputSize)
      throw new NnError(
        'INVALID_SHAPE',
        `input has inconsistent input_size: got ${x.shape[1]} expected ${this.inputSize}`,
      );
    const hs = states.map((s, i) => {
      const h = s
        ? batched
          ? s
          : s.unsqueeze(0)
        : zeros([x.shape[0]!, this.hiddenSize], { dtype: x.dtype, device: x.device });
      if (h.shape[0] !== x.shape[0])
        throw new NnError(
          'INVALID_SHAPE',
          `Input batch size ${x.shape[0]} doesn't match hidden${i} batch size ${h.shape[0]}`,
        );
      if (h.shape[1] !== this.hiddenSize)
        throw new NnError(
          'INVALID_SHAPE',
          `hidden${i} has inconsistent hidden_size: got ${h.shape[1]}, expected ${this.hiddenSize}`,
        );
      return h;
    });
    return [x, hs, batched];
  }

  override extraRepr(): string {
    return `${this.inputSize}, ${this.hiddenSize}${this.bias ? '' : ', bias=False'}`;
  }
}

/** torch.nn.RNNCell: h' = act(x W_ihᵀ + b_ih + h W_hhᵀ + b_hh), act tanh (default) or relu; h defaults to zeros. */
export class RNNCell extends RNNCellBase<Tensor, Tensor> {
  readonly nonlinearity: RnnNonlinearity;

  constructor(inputSize: number, hiddenSize: number, opts: RnnCellOptions & { nonlinearity?: RnnNonlinearity } = {}) {
    super(inputSize, hiddenSize, 1, opts);
    this.nonlinearity = opts.nonlinearity ?? 'tanh';
    if (this.nonlinearity !== 'tanh' && this.nonlinearity !== 'relu')
      throw new NnError('INVALID_ARGUMENT', `Unknown nonlinearity: ${String(this.nonlinearity)}`);
  }

  forward(input: Tensor, hx?: Tensor | null): Tensor {
    const [x, [h], batched] = this.prepare(input, [hx ?? undefined]);
    const y = rnnCell(x, h!, this.weights, this.nonlinearity);
    return batched ? y : y.squeeze(0);
  }

  override extraRepr(): string {
    return super.extraRepr() + (this.nonlinearity !== 'tanh' ? `, nonlinearity=${this.nonlinearity}` : '');
  }
}

/** torch.nn.LSTMCell: one LSTM step (gates i, f, g, o); forward(input, [h, c]?) returns [h', c']. */
export class LSTMCell extends RNNCellBase<[Tensor, Tensor], [Tensor, Tensor]> {
  constructor(inputSize: number, hiddenSize: number, opts: RnnCellOptions = {}) {
    super(inputSize, hiddenSize, 4, opts);
  }

  forward(input: Tensor, hx?: [Tensor, Tensor] | null): [Tensor, Tensor] {
    const [x, [h, c], batched] = this.prepare(input, hx ? [...hx] : [undefined, undefined]);
    const [hy, cy] = lstmCell(x, [h!, c!], this.weights);
    return batched ? [hy, cy] : [hy.squeeze(0), cy.squeeze(0)];
  }
}

/** torch.nn.GRUCell: one GRU step (gates r, z, n); h defaults to zeros. */
export class GRUCell extends RNNCellBase<Tensor, Tensor> {
  constructor(inputSize: number, hiddenSize: number, opts: RnnCellOptions = {}) {
    super(inputSize, hiddenSize, 3, opts);
  }

  forward(input: Tensor, hx?: Tensor | null): Tensor {
    const [x, [h], batched] = this.prepare(input, [hx ?? undefined]);
    const y = gruCell(x, h!, this.weights);
    return batched ? y : y.squeeze(0);
  }
}
