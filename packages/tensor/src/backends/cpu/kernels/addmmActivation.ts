import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import type { Tensor } from '../../../tensor.js';
import { wasmMatmul } from '../wasm/wasmMatmul.js';
import { matmulTs } from './matmul.js';

/** The TypeScript epilogue: c (a contiguous [M,N] product) += the contiguous bias row, then ReLU. */
function biasReluTs(c: Tensor, bias: Tensor): Tensor {
  const out = c.storage.data;
  const b = bias.storage.data;
  const N = c.shape[1]!;
  for (let i = 0; i < out.length; i++) {
    const v = out[i]! + b[bias.offset + (i % N)]!;
    out[i] = v < 0 ? 0 : v;
  }
  return c;
}

/**
 * AddmmActivation (Note [Kernel names]): the wasm gemm with its epilogue for float32 (Note
 * [Gemm epilogue]), else the TypeScript gemm and one pass for the bias and ReLU. Both take the
 * two matrices as they are (Note [Matrices through BatchMatMul]).
 */
export const addmmActivationKernel: KernelConfig = {
  kernelName: K.AddmmActivation,
  device: 'cpu',
  kernelFunc: ([bias, mat1, mat2]) => {
    // a kernel-local copy must not keep holding its storage (Note [Releasing storages])
    const row = bias!.contiguous();
    try {
      const fast = mat1!.dtype === 'float32' ? wasmMatmul(mat1!, mat2!, { bias: row, relu: true }) : null;
      return [fast ?? biasReluTs(matmulTs(mat1!, mat2!), row)];
    } finally {
      if (row !== bias) row.dispose();
    }
  },
};
