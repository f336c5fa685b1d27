// The recurrent cells of torch._VF (rnn_tanh_cell, rnn_relu_cell, lstm_cell, gru_cell) as compositions of
// differentiable ops. Each cell is split in two: the input's gate pre-activations `gi = x W_ihᵀ + b_ih`,
// and the step that mixes them with the hidden state. The layers compute `gi` for every time step in one
// product before their time loop (Note [Input gates of a whole sequence]); the cells compute it per call.
import { type Tensor, relu, sigmoid, tanh } from '@wiregrad/autograd';
import { canFuseLstmCell, fusedLstmCell } from './fusedLstmCell.js';
import { linear } from './linear.js';

/** The weights of one cell or one layer-direction of a recurrent layer, with PyTorch's roles. */
export interface CellWeights {
  wIh: Tensor;
  wHh: Tensor;
  bIh: Tensor | null;
  bHh: Tensor | null;
  /** LSTM's projection [projSize, hiddenSize] (weight_hr), absent without projSize */
  wHr?: Tensor | null;
}

export type RnnNonlinearity = 'tanh' | 'relu';

/** h' = act(gi + h W_hhᵀ + b_hh), with gi = x W_ihᵀ + b_ih. */
export function rnnStep(gi: Tensor, hx: Tensor, w: CellWeights, nonlinearity: RnnNonlinearity): Tensor {
  const pre = gi.add(linear(hx, w.wHh, w.bHh));
  return nonlinearity === 'tanh' ? tanh(pre) : relu(pre);
}

/**
 * PyTorch's gate order i, f, g, o: c' = σ(f) c + σ(i) tanh(g), h' = σ(o) tanh(c'), then h' W_hrᵀ
 * when the layer projects (projSize > 0).
 */
export function lstmStep(gi: Tensor, hx: Tensor, cx: Tensor, w: CellWeights): [Tensor, Tensor] {
  const gates = gi.add(linear(hx, w.wHh, w.bHh));
  const [hy, cy] = canFuseLstmCell(gates, cx) ? fusedLstmCell(gates, cx) : lstmGates(gates, cx);
  return [w.wHr ? linear(hy, w.wHr) : hy, cy];
}

/** The elementwise half of lstmStep as differentiable ops (Note [Fused LSTM cell] runs it in one pass where it can). */
export function lstmGates(gates: Tensor, cx: Tensor): [Tensor, Tensor] {
  const [i, f, g, o] = gates.chunk(4, -1) as [Tensor, Tensor, Tensor, Tensor];
  const cy = sigmoid(f)
    .mul(cx)
    .add(sigmoid(i).mul(tanh(g)));
  return [sigmoid(o).mul(tanh(cy)), cy];
}

/** PyTorch's gate order r, z, n: n = tanh(gi_n + r (h W_hnᵀ + b_hn)), h' = (1 - z) n + z h = n + z (h - n). */
export function gruStep(gi: Tensor, hx: Tensor, w: CellWeights): Tensor {
  const [ir, iz, inn] = gi.chunk(3, -1) as [Tensor, Tensor, Tensor];
  const [hr, hz, hn] = linear(hx, w.wHh, w.bHh).chunk(3, -1) as [Tensor, Tensor, Tensor];
  const r = sigmoid(ir.add(hr));
  const z = sigmoid(iz.add(hz));
  const n = tanh(inn.add(r.mul(hn)));
  return n.add(z.mul(hx.sub(n)));
}

/** torch._VF.rnn_tanh_cell / rnn_relu_cell: one step of an Elman cell on input [N, in] and hidden [N, H]. */
export function rnnCell(input: Tensor, hx: Tensor, w: CellWeights, nonlinearity: RnnNonlinearity = 'tanh'): Tensor {
  return rnnStep(linear(input, w.wIh, w.bIh), hx, w, nonlinearity);
}

/** torch._VF.lstm_cell: one step on input [N, in] and state ([N, H], [N, H]); returns [h', c']. */
export function lstmCell(input: Tensor, [hx, cx]: readonly [Tensor, Tensor], w: CellWeights): [Tensor, Tensor] {
  return lstmStep(linear(input, w.wIh, w.bIh), hx, cx, w);
}

/** torch._VF.gru_cell: one step on input [N, in] and hidden [N, H]. */
export function gruCell(input: Tensor, hx: Tensor, w: CellWeights): Tensor {
  return gruStep(linear(input, w.wIh, w.bIh), hx, w);
}
