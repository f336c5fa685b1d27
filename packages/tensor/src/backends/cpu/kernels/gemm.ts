import type { TypedArray } from '../../../dtype.js';

/** A strided 2-D matrix view into a typed array. */
export interface Mat {
  data: TypedArray;
  offset: number;
  rowStride: number;
  colStride: number;
}

const MR = 4;
const NR = 4;
/** Depth of one K block: a packed B block (KC x N float64) stays in L2 while every row panel streams past it. */
const KC = 128;

/**
 * Note [Gemm scratch]
 * A product needs float64 room for its sums and packed panels. Allocating typed arrays costs
 * more than a small product itself (a [10,4] @ [4,16] took 3.3 us, most of it four
 * allocations), so each role reuses one module-level array, grown on demand up to
 * SCRATCH_MAX elements; a bigger request gets an array of its own, so a huge product leaves no
 * huge scratch behind. gemm never calls out while it uses them, so no two calls share one.
 */
const SCRATCH_MAX = 1 << 16;
const scratch = { acc: new Float64Array(256), bPanels: new Float64Array(512), aPanel: new Float64Array(512) };

/** scratch[role] with room for `n` values (contents undefined), or a fresh array past SCRATCH_MAX. */
function room(role: keyof typeof scratch, n: number): Float64Array {
  // reused, not allocated (Note [Gemm scratch])
  if (n > SCRATCH_MAX) return new Float64Array(n);
  if (scratch[role].length < n)
    scratch[role] = new Float64Array(Math.min(SCRATCH_MAX, Math.max(n, 2 * scratch[role].length)));
  return scratch[role];
}
const tile = new Float64Array(MR * NR);

/** panel[k*MR + r] = A[i0+r, k0+k] for k < kc; rows past `rows` are zero. */
function packA(a: Mat, i0: number, rows: number, k0: number, kc: number, panel: Float64Array): void {
  const { data, rowStride: rs, colStride: cs } = a;
  for (let k = 0; k < kc; k++) {
    const src = a.offset + i0 * rs + (k0 + k) * cs;
    for (let r = 0; r < MR; r++) panel[k * MR + r] = r < rows ? data[src + r * rs]! : 0;
  }
}

/** Panel p of `panels` (kc*NR values from p*kc*NR): [k*NR + c] = B[k0+k, p*NR+c]; columns past N are zero. */
function packB(b: Mat, N: number, k0: number, kc: number, panels: Float64Array): void {
  const { data, rowStride: rs, colStride: cs } = b;
  for (let j0 = 0; j0 < N; j0 += NR) {
    const cols = Math.min(NR, N - j0);
    const base = (j0 / NR) * kc * NR;
    for (let k = 0; k < kc; k++) {
      const src = b.offset + (k0 + k) * rs + j0 * cs;
      for (let c = 0; c < NR; c++) panels[base + k * NR + c] = c < cols ? data[src + c * cs]! : 0;
    }
  }
}

/** acc[i*N + j] += A[i,:] . B[:,j] for thin products (M or N below the block size), straight from the strides. */
function thin(a: Mat, b: Mat, acc: Float64Array, M: number, N: number, K: number): void {
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let s = 0;
      let pa = a.offset + i * a.rowStride;
      let pb = b.offset + j * b.colStride;
      for (let k = 0; k < K; k++, pa += a.colStride, pb += b.rowStride) s += a.data[pa]! * b.data[pb]!;
      acc[i * N + j] = acc[i * N + j]! + s;
    }
  }
}

/**
 * Note [Register-blocked gemm]
 * C[M,N] = A[M,K] @ B[K,N] for any strides (a transposed operand is read by stride while
 * packing, never copied as a whole). K is cut into blocks of KC. Per block, B is packed once
 * into zero-padded panels of NR=4 columns and each row panel of MR=4 rows of A is packed
 * next to it, both k-major and float64, so the micro-kernel reads two sequential streams and
 * keeps a 4x4 block of C in 16 locals for the whole block: 16 multiply-adds per 8 loads and
 * no float32/int32 conversions in the inner loop. Padding makes edge blocks take the same
 * micro-kernel; the 4x4 block goes back through a small tile, bounded at the edges. Sums are float64 (`acc`), so int32
 * products are exact up to 2^53 and float32 ones are rounded once, when stored.
 */
function blocked(a: Mat, b: Mat, acc: Float64Array, M: number, N: number, K: number): void {
  const Np = Math.ceil(N / NR) * NR;
  const bPanels = room('bPanels', Math.min(KC, K) * Np);
  const aPanel = room('aPanel', Math.min(KC, K) * MR);
  for (let k0 = 0; k0 < K; k0 += KC) {
    const kc = Math.min(KC, K - k0);
    packB(b, N, k0, kc, bPanels);
    for (let i0 = 0; i0 < M; i0 += MR) {
      const rows = Math.min(MR, M - i0);
      packA(a, i0, rows, k0, kc, aPanel);
      for (let j0 = 0; j0 < N; j0 += NR) {
        let c00 = 0,
          c01 = 0,
          c02 = 0,
          c03 = 0,
          c10 = 0,
          c11 = 0,
          c12 = 0,
          c13 = 0;
        let c20 = 0,
          c21 = 0,
          c22 = 0,
          c23 = 0,
          c30 = 0,
          c31 = 0,
          c32 = 0,
          c33 = 0;
        for (let k = 0, pa = 0, pb = (j0 / NR) * kc * NR; k < kc; k++, pa += MR, pb += NR) {
          const b0 = bPanels[pb]!,
            b1 = bPanels[pb + 1]!,
            b2 = bPanels[pb + 2]!,
            b3 = bPanels[pb + 3]!;
          let x = aPanel[pa]!;
          c00 += x * b0;
          c01 += x * b1;
          c02 += x * b2;
          c03 += x * b3;
          x = aPanel[pa + 1]!;
          c10 += x * b0;
          c11 += x * b1;
          c12 += x * b2;
          c13 += x * b3;
          x = aPanel[pa + 2]!;
          c20 += x * b0;
          c21 += x * b1;
          c22 += x * b2;
          c23 += x * b3;
          x = aPanel[pa + 3]!;
          c30 += x * b0;
          c31 += x * b1;
          c32 += x * b2;
          c33 += x * b3;
        }
        const cols = Math.min(NR, N - j0);
        tile[0] = c00;
        tile[1] = c01;
        tile[2] = c02;
        tile[3] = c03;
        tile[4] = c10;
        tile[5] = c11;
        tile[6] = c12;
        tile[7] = c13;
        tile[8] = c20;
        tile[9] = c21;
        tile[10] = c22;
        tile[11] = c23;
        tile[12] = c30;
        tile[13] = c31;
        tile[14] = c32;
        tile[15] = c33;
        for (let r = 0; r < rows; r++) {
          const o = (i0 + r) * N + j0;
          for (let c = 0; c < cols; c++) acc[o + c] = acc[o + c]! + tile[r * NR + c]!;
        }
      }
    }
  }
}

/** out[outOffset .. + M*N] = A @ B, row-major, in out's dtype. See Note [Register-blocked gemm]. */
export function gemm(a: Mat, b: Mat, out: TypedArray, outOffset: number, M: number, N: number, K: number): void {
  const direct = out instanceof Float64Array;
  const size = M * N;
  const acc = direct ? out.subarray(outOffset, outOffset + size) : room('acc', size).fill(0, 0, size);
  if (M < MR || N < NR) thin(a, b, acc, M, N, K);
  else blocked(a, b, acc, M, N, K);
  if (!direct) for (let i = 0; i < size; i++) out[outOffset + i] = acc[i]!;
}
