import { KernelNames as K, bmm, transpose } from '@wiregrad/tensor';
import { ifNeeded, registerGradient } from './registry.js';

// [B,M,K] @ [B,K,N]: dA = dC @ Bᵀ, dB = Aᵀ @ dC (matmul's folding and broadcasting are views, with their own gradients)
registerGradient({
  kernelName: K.BatchMatMul,
  saveInputs: [0, 1],
  gradFunc: ([g], c) => [
    ifNeeded(c, 0, () => bmm(g!, transpose(c.input(1), 1, 2))),
    ifNeeded(c, 1, () => bmm(transpose(c.input(0), 1, 2), g!)),
  ],
});
