import type { Tensor } from '@wiregrad/autograd';
import { gruStep } from '../../functional/rnn.js';
import { PackedSequence } from '../../utils/rnn.js';
import { RNNBase, type RnnOptions } from './rnnBase.js';
import { checkStateDims } from './stateDims.js';

/**
 * torch.nn.GRU: gates r, z, n in PyTorch's order (weight_ih_l0 is [W_ir; W_iz; W_in]),
 * n = tanh(W_in x + b_in + r (W_hn h + b_hn)), h' = (1 - z) n + z h. forward(input, h0?) returns
 * [output, h_n] shaped as RNN's.
 */
export class GRU extends RNNBase<Tensor> {
  constructor(inputSize: number, hiddenSize: number, opts: RnnOptions = {}) {
    super('GRU', inputSize, hiddenSize, opts);
  }

  forward(input: Tensor, hx?: Tensor | null): [Tensor, Tensor];
  forward(input: PackedSequence, hx?: Tensor | null): [PackedSequence, Tensor];
  forward(input: Tensor | PackedSequence, hx?: Tensor | null): [Tensor | PackedSequence, Tensor] {
    if (hx && !(input instanceof PackedSequence)) checkStateDims(input, [hx], 'hx');
    const [out, [hn]] = this.runSequence(
      input,
      hx ? [hx] : null,
      [this.hiddenSize],
      (gi, [h], w) => [gruStep(gi, h!, w)],
      ([h], [e]) => this.checkHiddenSize(h!, e!),
    );
    return [out, hn!];
  }
}
