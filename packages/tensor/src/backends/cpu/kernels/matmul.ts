import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { Tensor } from '../../../tensor.js';
import { wasmMatmul } from '../wasm/wasmMatmul.js';
import { asBatch } from '../../matrixProducts.js';
import { gemm } from './gemm.js';

/**
 * BatchMatMul: [B,M,K] @ [B,K,N] -> [B,M,N], or two matrices (Note [Matrices through BatchMatMul]), in the
 * inputs' dtype; any strides (a stride-0 batch broadcasts).
 */
export const matmulKernel: KernelConfig = {
  kernelName: K.BatchMatMul,
  device: 'cpu',
  kernelFunc: ([a, b]) => [wasmMatmul(a!, b!) ?? matmulTs(a!, b!)],
};

/** The TypeScript reference kernel (Note [Kernel choice]), on two batches or two matrices. */
export function matmulTs(a: Tensor, b: Tensor): Tensor {
  const { B, M, K: Kd, N, aStrides, bStrides, outShape } = asBatch(a, b);
  const out = Tensor.empty(outShape, a.dtype);
  const [as0, as1, as2] = aStrides;
  const [bs0, bs1, bs2] = bStrides;
  for (let i = 0; i < B; i++) {
    gemm(
      { data: a.storage.data, offset: a.offset + i * as0, rowStride: as1, colStride: as2 },
      { data: b.storage.data, offset: b.offset + i * bs0, rowStride: bs1, colStride: bs2 },
      out.storage.data,
      i * M * N,
      M,
      N,
      Kd,
    );
  }
  return out;
}
