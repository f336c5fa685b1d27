import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import type { Tensor } from '../../../tensor.js';
import { wasmMatmul } from '../wasm/wasmMatmul.js';
import { matmulTs } from './matmul.js';

/** The TypeScript epilogue: c (a contiguous [1,M,N] product) += the contiguous bias row, then ReLU. */
function biasReluTs(c: Tensor, bias: Tensor): Tensor {
  const out = c.storage.data;
  const b = bias.storage.data;
  const N = c.shape[2]!;
  for (let i = 0; i < out.length; i++) {
    const v = out[i]! + b[bias.offset + (i % N)]!;
    out[i] = v < 0 ? 0 : v;
  }
  return c;
}

/**
 * AddmmActivation (Note [Kernel names]): the wasm gemm with its epilogue for float32 (Note
 * [Gemm epilogue]), else the TypeScript gemm and one pass for the bias and ReLU.
 */
export const addmmActivationKernel: KernelConfig = {
  kernelName: K.AddmmActivation,
  device: 'cpu',
  kernelFunc: ([bias, mat1, mat2]) => {
    // kernel-local views must not keep holding the storages (Note [Releasing storages])
    const a3 = mat1!.unsqueeze(0);
    const b3 = mat2!.unsqueeze(0);
    const row = bias!.contiguous();
    try {
      const fast = mat1!.dtype === 'float32' ? wasmMatmul(a3, b3, { bias: row, relu: true }) : null;
      const c3 = fast ?? biasReluTs(matmulTs(a3, b3), row);
      const out = c3.reshape([mat1!.shape[0]!, mat2!.shape[1]!]);
      c3.dispose();
      return [out];
    } finally {
      a3.dispose();
      b3.dispose();
      if (row !== bias) row.dispose();
    }
  },
};
