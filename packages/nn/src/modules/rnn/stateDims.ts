import type { Tensor } from '@wiregrad/autograd';
import { NnError } from '../../errors.js';

/**
 * PyTorch's check that the initial states match the input's batching: 2-D states for an unbatched
 * 2-D input, 3-D states for a batched 3-D one (`hx` for RNN and GRU, `hx and cx` for LSTM).
 */
export function checkStateDims(input: Tensor, states: Tensor[], what: 'hx' | 'hx and cx'): void {
  const batched = input.ndim === 3;
  const want = batched ? 3 : 2;
  if (states.every((s) => s.ndim === want)) return;
  const lead = batched ? 'For batched 3-D input' : 'For unbatched 2-D input';
  const got =
    states.length === 1 ? `${states[0]!.ndim}-D tensor` : `(${states.map((s) => `${s.ndim}-D`).join(', ')}) tensors`;
  throw new NnError('INVALID_SHAPE', `${lead}, ${what} should also be ${want}-D but got ${got}`);
}
