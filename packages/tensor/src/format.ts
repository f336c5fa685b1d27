import type { Tensor } from './tensor.js';

/** PyTorch-like printout, e.g. `tensor([[1., 2.]], device='gpu:0')`. Completed by the tensor ops work. */
export function formatTensor(t: Tensor): string {
  return `tensor(shape=[${t.shape.join(', ')}], dtype=${t.dtype})`;
}
