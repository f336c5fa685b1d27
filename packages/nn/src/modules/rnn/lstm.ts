import type { Tensor } from '@wiregrad/autograd';
import { lstmStep } from '../../functional/rnn.js';
import { PackedSequence } from '../../utils/rnn.js';
import { RNNBase, type RnnOptions } from './rnnBase.js';
import { checkStateDims } from './stateDims.js';

export type LstmState = [h: Tensor, c: Tensor];

/**
 * torch.nn.LSTM: gates i, f, g, o in PyTorch's order (weight_ih_l0 is [W_ii; W_if; W_ig; W_io]);
 * with projSize > 0 each layer's h is projected by weight_hr_l{k} [projSize, hiddenSize], so h has
 * projSize features and c keeps hiddenSize. forward(input, [h0, c0]?) returns
 * [output [L, N, D·Hout], [h_n [D·numLayers, N, Hout], c_n [D·numLayers, N, H]]].
 */
export class LSTM extends RNNBase<LstmState> {
  constructor(inputSize: number, hiddenSize: number, opts: RnnOptions & { projSize?: number } = {}) {
    super('LSTM', inputSize, hiddenSize, opts);
  }

  forward(input: Tensor, hx?: LstmState | null): [Tensor, LstmState];
  forward(input: PackedSequence, hx?: LstmState | null): [PackedSequence, LstmState];
  forward(input: Tensor | PackedSequence, hx?: LstmState | null): [Tensor | PackedSequence, LstmState] {
    if (hx && !(input instanceof PackedSequence)) checkStateDims(input, [...hx], 'hx and cx');
    const realHidden = this.projSize > 0 ? this.projSize : this.hiddenSize;
    const [out, [hn, cn]] = this.runSequence(
      input,
      hx ? [...hx] : null,
      [realHidden, this.hiddenSize],
      (gi, [h, c], w) => lstmStep(gi, h!, c!, w),
      ([h, c], [eh, ec]) => {
        this.checkHiddenSize(h!, eh!, 'hidden[0]');
        this.checkHiddenSize(c!, ec!, 'hidden[1]');
      },
    );
    return [out, [hn!, cn!]];
  }
}
