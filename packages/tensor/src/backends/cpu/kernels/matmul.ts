import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { Tensor } from '../../../tensor.js';
import { gemm } from './gemm.js';

/** BatchMatMul: [B,M,K] @ [B,K,N] -> [B,M,N], any strides (transposed inputs are not copied). */
export const matmulKernel: KernelConfig = {
  kernelName: K.BatchMatMul,
  device: 'cpu',
  kernelFunc: ([a, b]) => {
    const [B, M, Kd] = a!.shape as [number, number, number];
    const N = b!.shape[2]!;
    const out = Tensor.empty([B, M, N], a!.dtype);
    const c = out.storage.data;
    for (let i = 0; i < B; i++) {
      gemm(
        { data: a!.storage.data, offset: a!.offset + i * a!.strides[0]!, rowStride: a!.strides[1]!, colStride: a!.strides[2]! },
        { data: b!.storage.data, offset: b!.offset + i * b!.strides[0]!, rowStride: b!.strides[1]!, colStride: b!.strides[2]! },
        c,
        i * M * N,
        M,
        N,
        Kd,
        a!.dtype === 'float32',
      );
    }
    return [out];
  },
};
