import { KernelNames as K, type Tensor, bmm, mm, transpose } from '@wiregrad/tensor';
import { ifNeeded, registerGradient } from './registry.js';

/** The kernel's own product for its operands: two matrices (mm) or two batches (bmm). */
const product = (a: Tensor, b: Tensor): Tensor => (a.ndim === 2 ? mm(a, b) : bmm(a, b));
const transposed = (t: Tensor): Tensor => transpose(t, -2, -1);

/** Whether the last two dims of `t` are laid out column by column (a transposed contiguous matrix, as `W.t()`). */
function columnMajor(t: Tensor): boolean {
  const n = t.ndim;
  return t.shape[n - 2]! > 1 && t.strides[n - 2] === 1 && t.strides[n - 1] === t.shape[n - 2];
}

/**
 * Note [Gradients in their input's layout]
 * As PyTorch's mm_mat1_backward / mm_mat2_backward, an operand laid out column by column (`x @
 * W.t()`, what linear() does) gets its gradient computed transposed, (dCᵀ @ A)ᵀ for dB, so the
 * gradient has the operand's layout and the transpose's own backward hands the weight a
 * contiguous gradient: one AccumulateGrad takes over or adds on the SIMD kernels, where a
 * transposed view was copied, or added element by element (38 ms of the bench's LSTM step, whose
 * W_hh gets a gradient at each of its 64 steps).
 */
// [B,M,K] @ [B,K,N] or [M,K] @ [K,N]: dA = dC @ Bᵀ, dB = Aᵀ @ dC (matmul's folding and broadcasting are
// views, with their own gradients)
registerGradient({
  kernelName: K.BatchMatMul,
  saveInputs: [0, 1],
  gradFunc: ([g], c) => [
    ifNeeded(c, 0, () => {
      const b = c.input(1);
      return columnMajor(c.input(0)) ? transposed(product(b, transposed(g!))) : product(g!, transposed(b));
    }),
    ifNeeded(c, 1, () => {
      const a = c.input(0);
      return columnMajor(c.input(1)) ? transposed(product(transposed(g!), a)) : product(transposed(a), g!);
    }),
  ],
});
