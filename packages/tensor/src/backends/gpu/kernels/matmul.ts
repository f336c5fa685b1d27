import { platform } from '#platform';
import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import type { Tensor } from '../../../tensor.js';
import { dims3 } from '../../../shape.js';
import { MAX_LOOP, gpuInfo, kernel, launch, release } from '../gpuRuntime.js';
import { acceptingMatrices } from '../../matrixProducts.js';
import { assertGpuDType, gpuMap } from '../gpuMap.js';
import { gpuTensor, valueOf } from '../gpuTensor.js';

// meta: [M, N, aOff, as0, as1, as2, bOff, bs0, bs1, bs2]

/** One output element per thread, K steps each: two texture reads per multiply-add. */
const SCALAR = `function (meta, kk, a, b) {
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
 * Note [Tiled gpu matmul]
 * WebGL has no shared memory, so a thread can only reuse what it holds in registers, and
 * every texture read pays gpu.js's index-to-texel arithmetic. In the GL modes a matmul is
 * three passes, all with RGBA textures (gpu.js's 'Array(4)' return type, 4 floats a texel):
 * 1. pack: a's rows and b's columns (any strides, broadcast batches) into [B, rows, ceil(K/4)]
 *    texels of 4 consecutive k each, zero past K;
 * 2. each thread computes a 2x2 block C[i..i+1, j..j+1] from two packed rows of a and two
 *    packed columns of b: 4 texel reads per 16 multiply-adds, against 32 reads for one
 *    output per thread; the block is one texel. Odd M or N: the last block's second
 *    row/column re-reads the last one (a valid index) and step 3 drops it;
 * 3. unpack the [B, ceil(M/2), ceil(N/2)] texels into the usual one-float-per-element
 *    [B, M, N] storage (one read per output, against K/4 in step 2).
 * Each output sums its k in groups of 4, float32. gpu.js's webasm and cpu modes cannot return
 * arrays and read memory, not textures: they keep one output per thread (SCALAR). Measured
 * on Mesa's llvmpipe: bench/gpu.bench.ts.
 */
// meta [R, K4, offset, batch stride, row stride, k stride, K]: texel (bb, r, k4) holds x[bb, r, 4 k4 .. 4 k4 + 3]
const PACK = `function (meta, x) {
const e = this.thread.x;
const q = Math.floor((e + 0.5) / meta[1]);
const k4 = e - q * meta[1];
const bb = Math.floor((q + 0.5) / meta[0]);
const r = q - bb * meta[0];
const k = k4 * 4;
const base = meta[2] + bb * meta[3] + r * meta[4];
const i0 = base + k * meta[5];
const i1 = base + Math.min(k + 1, meta[6] - 1) * meta[5];
const i2 = base + Math.min(k + 2, meta[6] - 1) * meta[5];
const i3 = base + Math.min(k + 3, meta[6] - 1) * meta[5];
const v0 = x[i0];
const v1 = x[i1];
const v2 = x[i2];
const v3 = x[i3];
return [v0, k + 1 < meta[6] ? v1 : 0, k + 2 < meta[6] ? v2 : 0, k + 3 < meta[6] ? v3 : 0];
}`;

// meta [M, N, K4, ceil(M / 2), ceil(N / 2)]; pa [B, M, K4] and pb [B, N, K4] packed texels
const TILED = `function (meta, pa, pb) {
const e = this.thread.x;
const q = Math.floor((e + 0.5) / meta[4]);
const j = (e - q * meta[4]) * 2;
const bb = Math.floor((q + 0.5) / meta[3]);
const i = (q - bb * meta[3]) * 2;
let ia0 = (bb * meta[0] + i) * meta[2];
let ia1 = (bb * meta[0] + Math.min(i + 1, meta[0] - 1)) * meta[2];
let ib0 = (bb * meta[1] + j) * meta[2];
let ib1 = (bb * meta[1] + Math.min(j + 1, meta[1] - 1)) * meta[2];
let s00 = 0;
let s01 = 0;
let s10 = 0;
let s11 = 0;
for (let k = 0; k < meta[2]; k++) {
  const a0 = pa[ia0];
  const a1 = pa[ia1];
  const b0 = pb[ib0];
  const b1 = pb[ib1];
  s00 += a0[0] * b0[0] + a0[1] * b0[1] + a0[2] * b0[2] + a0[3] * b0[3];
  s01 += a0[0] * b1[0] + a0[1] * b1[1] + a0[2] * b1[2] + a0[3] * b1[3];
  s10 += a1[0] * b0[0] + a1[1] * b0[1] + a1[2] * b0[2] + a1[3] * b0[3];
  s11 += a1[0] * b1[0] + a1[1] * b1[1] + a1[2] * b1[2] + a1[3] * b1[3];
  ia0 += 1;
  ia1 += 1;
  ib0 += 1;
  ib1 += 1;
}
return [s00, s01, s10, s11];
}`;

// output element (bb, i, j) of [B, M, N] from texel (bb, i / 2, j / 2), channel (i % 2) * 2 + j % 2
const UNPACK = `function (meta, p) {
const e = this.thread.x;
const bm = Math.floor((e + 0.5) / meta[1]);
const j = e - bm * meta[1];
const bb = Math.floor((bm + 0.5) / meta[0]);
const i = bm - bb * meta[0];
const i2 = Math.floor(i * 0.5);
const j2 = Math.floor(j * 0.5);
const t = (bb * meta[3] + i2) * meta[4] + j2;
const v = p[t];
const c = (i - i2 * 2) * 2 + (j - j2 * 2);
return c === 0 ? v[0] : (c === 1 ? v[1] : (c === 2 ? v[2] : v[3]));
}`;

/** gpu.js modes whose kernels can return 4 floats per thread (Note [Tiled gpu matmul]). */
const PACKED_MODES: ReadonlySet<string> = new Set(['headlessgl', 'webgl2', 'webgl']);

/**
 * Whether this matmul runs tiled: in the GL modes, unless WIREGRAD_GPU_MATMUL=perOutput asks for
 * one output per thread (read per call, so bench/gpu.bench.ts compares both in one process).
 */
function tiledHere(): boolean {
  return PACKED_MODES.has(gpuInfo().mode) && platform.env('WIREGRAD_GPU_MATMUL') !== 'perOutput';
}

/** One K slice of a @ b as a [B, M, N] gpu tensor, tiled (Note [Tiled gpu matmul]) or one output per thread. */
function matmulSlice(meta: readonly number[], B: number, kk: number, a: Tensor, b: Tensor): Tensor {
  const [M, N] = [meta[0]!, meta[1]!];
  if (M * N === 0 || !tiledHere()) {
    const value = launch(
      kernel('matmul', () => SCALAR),
      B * M * N,
      [meta, kk, valueOf(a), valueOf(b)],
    );
    return gpuTensor(value, [B, M, N], a.dtype, a.device);
  }
  const K4 = Math.ceil(kk / 4);
  const pack = kernel('matmul:pack', () => PACK, 'Array(4)');
  const pa = launch(pack, B * M * K4, [[M, K4, meta[2]!, meta[3]!, meta[4]!, meta[5]!, kk], valueOf(a)]);
  const pb = launch(pack, B * N * K4, [[N, K4, meta[6]!, meta[7]!, meta[9]!, meta[8]!, kk], valueOf(b)]);
  const tile = [M, N, K4, Math.ceil(M / 2), Math.ceil(N / 2)];
  const packed = launch(
    kernel('matmul:tiled', () => TILED, 'Array(4)'),
    B * tile[3]! * tile[4]!,
    [tile, pa, pb],
  );
  release(pa);
  release(pb);
  const value = launch(
    kernel('matmul:unpack', () => UNPACK),
    B * M * N,
    [tile, packed],
  );
  release(packed);
  return gpuTensor(value, [B, M, N], a.dtype, a.device);
}

/** meta for the K slice from k0 of a [B, M, K] @ b [B, K, N] (strided, broadcast batches). */
function matmulMeta(a: Tensor, b: Tensor, k0: number): number[] {
  const [M, N] = [a.shape[1]!, b.shape[2]!];
  return [M, N, a.offset + k0 * a.strides[2]!, ...a.strides, b.offset + k0 * b.strides[1]!, ...b.strides];
}

/**
 * BatchMatMul [B,M,K] @ [B,K,N] on the gpu (two matrices as a batch of one, Note [Matrices through
 * BatchMatMul]): any strides (broadcast batches, transposes), accumulated in float32 (Note [Tiled
 * gpu matmul]). K is taken in slices of MAX_LOOP (gpu.js silently cuts longer loops), summed.
 */
export const matmulKernel: KernelConfig = {
  kernelName: K.BatchMatMul,
  device: 'gpu',
  kernelFunc: acceptingMatrices(([a, b]) => {
    assertGpuDType(a!.dtype);
    const [B, , Kd] = dims3(a!.shape, 'BatchMatMul');
    let acc: Tensor | null = null;
    for (let k0 = 0; k0 === 0 || k0 < Kd; k0 += MAX_LOOP) {
      const part = matmulSlice(matmulMeta(a!, b!, k0), B, Math.min(MAX_LOOP, Kd - k0), a!, b!);
      if (acc !== null) {
        const sum = gpuMap(K.Add, 'x + y', [acc, part], a!.dtype);
        acc.dispose();
        part.dispose();
        acc = sum;
      } else acc = part;
    }
    return [acc!];
  }),
};
