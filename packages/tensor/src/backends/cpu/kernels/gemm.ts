import type { TypedArray } from '../../../dtype.js';

/** A strided 2-D matrix view into a typed array. */
export interface Mat {
  data: ArrayLike<number>;
  offset: number;
  rowStride: number;
  colStride: number;
}

const MR = 4;
const NR = 4;

/** Copies rows [i0, i0+MR) of A into a panel laid out k-major: panel[k*MR + r] = A[i0+r, k]. */
function packA(a: Mat, i0: number, K: number, panel: Float64Array | Float32Array): void {
  for (let r = 0; r < MR; r++) {
    let src = a.offset + (i0 + r) * a.rowStride;
    for (let k = 0; k < K; k++, src += a.colStride) panel[k * MR + r] = a.data[src]!;
  }
}

/** Copies columns [j0, j0+NR) of B into a panel laid out k-major: panel[k*NR + c] = B[k, j0+c]. */
function packB(b: Mat, j0: number, K: number, panel: Float64Array | Float32Array): void {
  for (let k = 0; k < K; k++) {
    const src = b.offset + k * b.rowStride + j0 * b.colStride;
    for (let c = 0; c < NR; c++) panel[k * NR + c] = b.data[src + c * b.colStride]!;
  }
}

/**
 * Note [Register-blocked gemm]
 * C[M,N] = A[M,K] @ B[K,N] for any strides. A is packed in panels of MR=4 rows and B in
 * panels of NR=4 columns, both k-major, so the micro-kernel reads two sequential streams and
 * keeps a 4x4 block of C in 16 locals for the whole K loop: 16 multiply-adds per 8 loads and
 * no store until the block is done. B's panels are packed once per call and reused by every
 * row panel; the rows and columns left over (M, N not multiples of 4) take a plain loop.
 */
export function gemm(a: Mat, b: Mat, c: TypedArray, cOffset: number, M: number, N: number, K: number, f32: boolean): void {
  const Mb = M - (M % MR);
  const Nb = N - (N % NR);
  const make = (n: number) => (f32 ? new Float32Array(n) : new Float64Array(n));
  const bPanels = make((Nb / NR) * K * NR);
  for (let jp = 0; jp < Nb / NR; jp++) packB(b, jp * NR, K, bPanels.subarray(jp * K * NR, (jp + 1) * K * NR));
  const aPanel = make(K * MR);
  for (let i0 = 0; i0 < Mb; i0 += MR) {
    packA(a, i0, K, aPanel);
    for (let j0 = 0; j0 < Nb; j0 += NR) {
      const bp = (j0 / NR) * K * NR;
      let c00 = 0, c01 = 0, c02 = 0, c03 = 0, c10 = 0, c11 = 0, c12 = 0, c13 = 0;
      let c20 = 0, c21 = 0, c22 = 0, c23 = 0, c30 = 0, c31 = 0, c32 = 0, c33 = 0;
      for (let k = 0, pa = 0, pb = bp; k < K; k++, pa += MR, pb += NR) {
        const a0 = aPanel[pa]!, a1 = aPanel[pa + 1]!, a2 = aPanel[pa + 2]!, a3 = aPanel[pa + 3]!;
        const b0 = bPanels[pb]!, b1 = bPanels[pb + 1]!, b2 = bPanels[pb + 2]!, b3 = bPanels[pb + 3]!;
        c00 += a0 * b0; c01 += a0 * b1; c02 += a0 * b2; c03 += a0 * b3;
        c10 += a1 * b0; c11 += a1 * b1; c12 += a1 * b2; c13 += a1 * b3;
        c20 += a2 * b0; c21 += a2 * b1; c22 += a2 * b2; c23 += a2 * b3;
        c30 += a3 * b0; c31 += a3 * b1; c32 += a3 * b2; c33 += a3 * b3;
      }
      let o = cOffset + i0 * N + j0;
      c[o] = c00; c[o + 1] = c01; c[o + 2] = c02; c[o + 3] = c03;
      o += N;
      c[o] = c10; c[o + 1] = c11; c[o + 2] = c12; c[o + 3] = c13;
      o += N;
      c[o] = c20; c[o + 1] = c21; c[o + 2] = c22; c[o + 3] = c23;
      o += N;
      c[o] = c30; c[o + 1] = c31; c[o + 2] = c32; c[o + 3] = c33;
    }
  }
  // leftovers: the last M % 4 rows (all columns) and the last N % 4 columns (block rows)
  const plain = (i: number, j: number) => {
    let acc = 0;
    let pa = a.offset + i * a.rowStride;
    let pb = b.offset + j * b.colStride;
    for (let k = 0; k < K; k++, pa += a.colStride, pb += b.rowStride) acc += a.data[pa]! * b.data[pb]!;
    c[cOffset + i * N + j] = acc;
  };
  for (let i = 0; i < Mb; i++) for (let j = Nb; j < N; j++) plain(i, j);
  for (let i = Mb; i < M; i++) for (let j = 0; j < N; j++) plain(i, j);
}
