import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import type { Tensor } from '../../../tensor.js';
import { MAX_LOOP, kernel, launch } from '../gpuRuntime.js';
import { assertGpuDType, gpuMap } from '../gpuMap.js';
import { gpuTensor, valueOf } from '../gpuTensor.js';

// meta: [M, N, aOff, as0, as1, as2, bOff, bs0, bs1, bs2]; one output element per thread, K steps each
const SOURCE = `function (meta, kk, a, b) {
const e = this.thread.x;
const q = Math.floor((e + 0.5) / meta[1]);
const j = e - q * meta[1];
const bi = Math.floor((q + 0.5) / meta[0]);
const i = q - bi * meta[0];
let ia = meta[2] + bi * meta[3] + i * meta[4];
let ib = meta[6] + bi * meta[7] + j * meta[9];
let s = 0;
for (let k = 0; k < kk; k++) {
  s += a[ia] * b[ib];
  ia += meta[5];
  ib += meta[8];
}
return s;
}`;

/**
 * BatchMatMul [B,M,K] @ [B,K,N] on the gpu: any strides (broadcast batches, transposes), accumulated
 * in float32. K is taken in slices of MAX_LOOP (gpu.js silently cuts longer loops), summed.
 */
export const matmulKernel: KernelConfig = {
  kernelName: K.BatchMatMul,
  device: 'gpu',
  kernelFunc: ([a, b]) => {
    assertGpuDType(a!.dtype);
    const [B, M, Kd] = a!.shape as [number, number, number];
    const N = b!.shape[2]!;
    let acc: Tensor | null = null;
    for (let k0 = 0; k0 === 0 || k0 < Kd; k0 += MAX_LOOP) {
      const meta = [
        M,
        N,
        a!.offset + k0 * a!.strides[2]!,
        ...a!.strides,
        b!.offset + k0 * b!.strides[1]!,
        ...b!.strides,
      ];
      const value = launch(
        kernel('matmul', () => SOURCE),
        B * M * N,
        [meta, Math.min(MAX_LOOP, Kd - k0), valueOf(a!), valueOf(b!)],
      );
      const part = gpuTensor(value, [B, M, N], a!.dtype, a!.device);
      if (acc !== null) {
        const sum = gpuMap(K.Add, 'x + y', [acc, part], a!.dtype);
        acc.dispose();
        part.dispose();
        acc = sum;
      } else acc = part;
    }
    return [acc!];
  },
};
