import { KernelNames as K, type Tensor, bmm, mm, transpose } from '@wiregrad/tensor';
import { ifNeeded, registerGradient } from './registry.js';

/** The kernel's own product for its operands: two matrices (mm) or two batches (bmm). */
const product = (a: Tensor, b: Tensor): Tensor => (a.ndim === 2 ? mm(a, b) : bmm(a, b));
const transposed = (t: Tensor): Tensor => transpose(t, -2, -1);

// [B,M,K] @ [B,K,N] or [M,K] @ [K,N]: dA = dC @ Bᵀ, dB = Aᵀ @ dC (matmul's folding and broadcasting are
// views, with their own gradients)
registerGradient({
  kernelName: K.BatchMatMul,
  saveInputs: [0, 1],
  gradFunc: ([g], c) => [
    ifNeeded(c, 0, () => product(g!, transposed(c.input(1)))),
    ifNeeded(c, 1, () => product(transposed(c.input(0)), g!)),
  ],
});
