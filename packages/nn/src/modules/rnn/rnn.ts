import type { Tensor } from '@wiregrad/autograd';
import { NnError } from '../../errors.js';
import { type RnnNonlinearity, rnnStep } from '../../functional/rnn.js';
import { PackedSequence } from '../../utils/rnn.js';
import { RNNBase, type RnnOptions } from './rnnBase.js';
import { checkStateDims } from './stateDims.js';

/**
 * torch.nn.RNN: an Elman network, h_t = act(x_t W_ihᵀ + b_ih + h_{t-1} W_hhᵀ + b_hh) with act tanh
 * (default) or relu. forward(input [L, N, in] | [N, L, in] with batchFirst | [L, in], h0?) returns
 * [output [L, N, D·H], h_n [D·numLayers, N, H]].
 */
export class RNN extends RNNBase<Tensor> {
  readonly nonlinearity: RnnNonlinearity;

  constructor(inputSize: number, hiddenSize: number, opts: RnnOptions & { nonlinearity?: RnnNonlinearity } = {}) {
    const nonlinearity = opts.nonlinearity ?? 'tanh';
    if (nonlinearity !== 'tanh' && nonlinearity !== 'relu')
      throw new NnError('INVALID_ARGUMENT', `Unknown nonlinearity '${String(nonlinearity)}'`);
    super(nonlinearity === 'tanh' ? 'RNN_TANH' : 'RNN_RELU', inputSize, hiddenSize, opts);
    this.nonlinearity = nonlinearity;
  }

  forward(input: Tensor, hx?: Tensor | null): [Tensor, Tensor];
  forward(input: PackedSequence, hx?: Tensor | null): [PackedSequence, Tensor];
  forward(input: Tensor | PackedSequence, hx?: Tensor | null): [Tensor | PackedSequence, Tensor] {
    if (hx && !(input instanceof PackedSequence)) checkStateDims(input, [hx], 'hx');
    const act = this.nonlinearity;
    const [out, [hn]] = this.runSequence(
      input,
      hx ? [hx] : null,
      [this.hiddenSize],
      (gi, [h], w) => [rnnStep(gi, h!, w, act)],
      ([h], [e]) => this.checkHiddenSize(h!, e!),
    );
    return [out, hn!];
  }
}
