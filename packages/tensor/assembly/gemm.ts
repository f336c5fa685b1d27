// f32 matrix multiply: packed panels and a 4x8 register-blocked micro-kernel.

/**
 * Note [Wasm gemm]
 * C[m,n] = A[m,k] @ B[k,n] for any element strides of A and B, C row-major with row
 * stride ldc. GotoBLAS's loop order: for each KC-deep slice of k, B's slice is packed
 * once into NR-wide column panels (KC x NR, stays in L1 during the inner loops) and each
 * MC-row block of A into MR-row panels (MC x KC, L2); the micro-kernel keeps a 4x8 tile
 * of C in eight v128 registers and streams one A panel and one B panel. The first k
 * slice stores the tile, later slices add to it, so C needs no zeroing. Tiles at the
 * right and bottom edges run on zero-padded panels into a scratch tile and copy the valid
 * part. The caller passes thread-private scratch of `gemmScratchBytes(n)` bytes, so
 * several threads can run disjoint row or column ranges of one product at once.
 */
const MR: i32 = 4;
const NR: i32 = 8;
const KC: i32 = 256;
const MC: i32 = 64;

/** Bytes of scratch one call of `gemm` with `n` columns needs. */
export function gemmScratchBytes(n: i32): i32 {
  const npad = ((n + NR - 1) / NR) * NR;
  return (KC * npad + MC * KC + MR * NR) << 2;
}

@inline function at(base: usize, index: i32): usize {
  return base + (<usize>index << 2);
}

/** 4x4 transpose of rows v0..v3 (each 4 floats) in place of their columns. */
@inline function storeTransposed4(dst: usize, step: usize, v0: v128, v1: v128, v2: v128, v3: v128): void {
  const t0 = v128.shuffle<f32>(v0, v1, 0, 4, 1, 5);
  const t1 = v128.shuffle<f32>(v0, v1, 2, 6, 3, 7);
  const t2 = v128.shuffle<f32>(v2, v3, 0, 4, 1, 5);
  const t3 = v128.shuffle<f32>(v2, v3, 2, 6, 3, 7);
  v128.store(dst, v128.shuffle<f32>(t0, t2, 0, 1, 4, 5));
  v128.store(dst + step, v128.shuffle<f32>(t0, t2, 2, 3, 6, 7));
  v128.store(dst + 2 * step, v128.shuffle<f32>(t1, t3, 0, 1, 4, 5));
  v128.store(dst + 3 * step, v128.shuffle<f32>(t1, t3, 2, 3, 6, 7));
}

/** Packs rows [0,mc) x cols [0,kc) of A into MR-row panels: for each p, MR consecutive values; missing rows are 0. */
function packA(a: usize, sa0: i32, sa1: i32, mc: i32, kc: i32, dst: usize): void {
  for (let i = 0; i < mc; i += MR) {
    const rows = min(MR, mc - i);
    let p = 0;
    if (rows == MR && sa1 == 1) {
      // row-major A: four rows of four k values, transposed into four panel steps
      for (; p + 4 <= kc; p += 4) {
        const src = at(a, i * sa0 + p);
        const rs = <usize>sa0 << 2;
        storeTransposed4(dst, 16, v128.load(src), v128.load(src + rs), v128.load(src + 2 * rs), v128.load(src + 3 * rs));
        dst += 64;
      }
    }
    for (; p < kc; p++) {
      if (rows == MR && sa0 == 1) {
        v128.store(dst, v128.load(at(a, i + p * sa1)));
      } else {
        for (let r = 0; r < MR; r++) store<f32>(dst + (<usize>r << 2), r < rows ? load<f32>(at(a, (i + r) * sa0 + p * sa1)) : 0);
      }
      dst += 16;
    }
  }
}

/** Packs rows [0,kc) x cols [0,nc) of B into NR-column panels: for each p, NR consecutive values; missing columns are 0. */
function packB(b: usize, sb0: i32, sb1: i32, kc: i32, nc: i32, dst: usize): void {
  for (let j = 0; j < nc; j += NR) {
    const cols = min(NR, nc - j);
    let p = 0;
    if (cols == NR && sb0 == 1) {
      // B is a transposed row-major matrix (x @ W.t()): columns are contiguous in k
      const cs = <usize>sb1 << 2;
      for (; p + 4 <= kc; p += 4) {
        const src = at(b, p + j * sb1);
        storeTransposed4(dst, 32, v128.load(src), v128.load(src + cs), v128.load(src + 2 * cs), v128.load(src + 3 * cs));
        const src4 = src + 4 * cs;
        storeTransposed4(dst + 16, 32, v128.load(src4), v128.load(src4 + cs), v128.load(src4 + 2 * cs), v128.load(src4 + 3 * cs));
        dst += 128;
      }
    }
    for (; p < kc; p++) {
      const src = at(b, p * sb0 + j * sb1);
      if (cols == NR && sb1 == 1) {
        v128.store(dst, v128.load(src));
        v128.store(dst, v128.load(src, 16), 16);
      } else {
        for (let c = 0; c < NR; c++) store<f32>(dst + (<usize>c << 2), c < cols ? load<f32>(src + (<usize>(c * sb1) << 2)) : 0);
      }
      dst += 32;
    }
  }
}

/**
 * Note [Relaxed SIMD gemm]
 * scripts/build-wasm.mjs builds this module twice: once plain and once with relaxed SIMD,
 * where ASC_FEATURE_RELAXED_SIMD is true and each multiply-add of the micro-kernel is one
 * f32x4.relaxed_madd (a fused multiply-add where the CPU has one, so half the vector
 * instructions of the inner loop). The runtime picks the relaxed build where
 * WebAssembly.validate accepts relaxed SIMD (Node 20 needs --experimental-wasm-relaxed-simd)
 * and the plain one elsewhere (wasmRuntime.ts). Fused or not, the two differ by float32
 * rounding only.
 */
@inline function madd(acc: v128, a: v128, b: v128): v128 {
  if (ASC_FEATURE_RELAXED_SIMD) return f32x4.relaxed_madd(a, b, acc);
  return f32x4.add(acc, f32x4.mul(a, b));
}

@inline function put(c: usize, off: usize, v: v128, accumulate: bool): void {
  v128.store(c + off, accumulate ? f32x4.add(v128.load(c + off), v) : v);
}

/** C[4x8] (=|+=) Apanel(kc x 4) . Bpanel(kc x 8). */
function kernel4x8(kc: i32, ap: usize, bp: usize, c: usize, ldc: i32, accumulate: bool): void {
  let c00 = f32x4.splat(0), c01 = f32x4.splat(0);
  let c10 = f32x4.splat(0), c11 = f32x4.splat(0);
  let c20 = f32x4.splat(0), c21 = f32x4.splat(0);
  let c30 = f32x4.splat(0), c31 = f32x4.splat(0);
  for (let p = 0; p < kc; p++) {
    const b0 = v128.load(bp);
    const b1 = v128.load(bp, 16);
    let a = v128.load32_splat(ap);
    c00 = madd(c00, a, b0);
    c01 = madd(c01, a, b1);
    a = v128.load32_splat(ap, 4);
    c10 = madd(c10, a, b0);
    c11 = madd(c11, a, b1);
    a = v128.load32_splat(ap, 8);
    c20 = madd(c20, a, b0);
    c21 = madd(c21, a, b1);
    a = v128.load32_splat(ap, 12);
    c30 = madd(c30, a, b0);
    c31 = madd(c31, a, b1);
    ap += 16;
    bp += 32;
  }
  const ld = <usize>ldc << 2;
  put(c, 0, c00, accumulate);
  put(c, 16, c01, accumulate);
  put(c, ld, c10, accumulate);
  put(c, ld + 16, c11, accumulate);
  put(c, 2 * ld, c20, accumulate);
  put(c, 2 * ld + 16, c21, accumulate);
  put(c, 3 * ld, c30, accumulate);
  put(c, 3 * ld + 16, c31, accumulate);
}

/** Copies (or adds) the valid mr x nr corner of a scratch tile into C. */
function mergeTile(tile: usize, c: usize, ldc: i32, mr: i32, nr: i32, accumulate: bool): void {
  for (let r = 0; r < mr; r++) {
    for (let j = 0; j < nr; j++) {
      const dst = at(c, r * ldc + j);
      const v = load<f32>(at(tile, r * NR + j));
      store<f32>(dst, accumulate ? load<f32>(dst) + v : v);
    }
  }
}

/**
 * Note [Gemm epilogue]
 * Linear + ReLU as oneDNN's post-ops: `gemmBiasAct` adds a bias row (one value per column
 * of C) and, with act 1, applies ReLU, to each MC-row block of C right after the last k
 * slice finished it, while the block is still in cache, instead of two more passes over
 * C in memory. ReLU keeps NaN and -0 like `x < 0 ? 0 : x`, as the unary kernel does.
 */
const ACT_RELU = 1;

/** Rows [0,rows) of C (ldc) get the bias row added (bias 0: none) and ReLU applied (act 1). */
function epilogue(c: usize, ldc: i32, rows: i32, n: i32, bias: usize, act: i32): void {
  const zero = f32x4.splat(0);
  const vecEnd = n & ~3;
  for (let r = 0; r < rows; r++) {
    const row = at(c, r * ldc);
    let j = 0;
    for (; j < vecEnd; j += 4) {
      const off = <usize>j << 2;
      let v = v128.load(row + off);
      if (bias != 0) v = f32x4.add(v, v128.load(bias + off));
      if (act == ACT_RELU) v = v128.bitselect(zero, v, f32x4.lt(v, zero));
      v128.store(row + off, v);
    }
    for (; j < n; j++) {
      const off = <usize>j << 2;
      let v = load<f32>(row + off);
      if (bias != 0) v += load<f32>(bias + off);
      if (act == ACT_RELU && v < 0) v = 0;
      store<f32>(row + off, v);
    }
  }
}

/** C[m,n] = A[m,k] @ B[k,n] (pointers in bytes, strides in elements); see Note [Wasm gemm]. k must be > 0. */
export function gemm(a: usize, sa0: i32, sa1: i32, b: usize, sb0: i32, sb1: i32, c: usize, ldc: i32, m: i32, n: i32, k: i32, scratch: usize): void {
  gemmBiasAct(a, sa0, sa1, b, sb0, sb1, c, ldc, m, n, k, scratch, 0, 0);
}

/** gemm, then C += bias (a row of n floats at `bias`, 0 for none) and ReLU where act is 1 (Note [Gemm epilogue]). */
function gemmBiasAct(a: usize, sa0: i32, sa1: i32, b: usize, sb0: i32, sb1: i32, c: usize, ldc: i32, m: i32, n: i32, k: i32, scratch: usize, bias: usize, act: i32): void {
  const npad = ((n + NR - 1) / NR) * NR;
  const bpack = scratch;
  const apack = bpack + (<usize>(KC * npad) << 2);
  const tile = apack + (<usize>(MC * KC) << 2);
  const post = bias != 0 || act != 0;
  for (let pc = 0; pc < k; pc += KC) {
    const kc = min(KC, k - pc);
    const accumulate = pc > 0;
    packB(at(b, pc * sb0), sb0, sb1, kc, n, bpack);
    for (let ic = 0; ic < m; ic += MC) {
      const mc = min(MC, m - ic);
      packA(at(a, ic * sa0 + pc * sa1), sa0, sa1, mc, kc, apack);
      for (let jr = 0; jr < n; jr += NR) {
        const nr = min(NR, n - jr);
        const bp = bpack + (<usize>(jr * kc) << 2);
        for (let ir = 0; ir < mc; ir += MR) {
          const mr = min(MR, mc - ir);
          const ap = apack + (<usize>(ir * kc) << 2);
          const cp = at(c, (ic + ir) * ldc + jr);
          if (mr == MR && nr == NR) {
            kernel4x8(kc, ap, bp, cp, ldc, accumulate);
          } else {
            kernel4x8(kc, ap, bp, tile, NR, false);
            mergeTile(tile, cp, ldc, mr, nr, accumulate);
          }
        }
      }
      if (post && pc + kc >= k) epilogue(at(c, ic * ldc), ldc, mc, n, bias, act);
    }
  }
}

/**
 * Note [Batched gemm]
 * `gemmBatch` computes a batched product C[i] = A[i] @ B[i] (+ the epilogue) for i in [0, batch),
 * C contiguous [batch, m, n], on every pool thread at once. The work is numbered in units, each
 * MR rows (split by rows) or NR columns (by columns) of one product, product after product, and
 * each thread claims the next `chunk` units with an atomic add on the shared counter at `next`
 * (zero at the start) until none are left, as Note [Claimed chunks]: with many products a chunk
 * is a few whole products (conv's 64 per-sample products are one hand-off per thread, not 64, and
 * a thread that loses its core holds up one chunk), with few it is an equal share of them (a
 * single big product splits as before: a chunk of rows packs all of B, so rows are not cut finer).
 * Units sit on micro-tile bounds inside each product and every value of C is summed in the same
 * order whichever thread computes it, so the bits do not depend on the split. The shape and
 * strides reach the module as a block of i32 words (the D_* offsets, written by
 * src/backends/cpu/wasm/wasmMatmul.ts), as pool tasks carry few arguments.
 */
const D_BATCH = 0, D_M = 1, D_N = 2, D_K = 3;
const D_SA0 = 4, D_SA1 = 5, D_SA2 = 6, D_SB0 = 7, D_SB1 = 8, D_SB2 = 9;
const D_ACT = 10, D_BY_ROWS = 11;

@inline function word(desc: usize, i: i32): i32 {
  return load<i32>(desc + (<usize>i << 2));
}

/** Claims chunks of units of the batched product described at `desc` until none are left (bias: a row of n floats, 0 for none); see Note [Batched gemm]. */
export function gemmBatch(a: usize, b: usize, c: usize, bias: usize, desc: usize, next: usize, chunk: i32, scratch: usize): void {
  const m = word(desc, D_M), n = word(desc, D_N), k = word(desc, D_K);
  const sa0 = word(desc, D_SA0), sa1 = word(desc, D_SA1), sa2 = word(desc, D_SA2);
  const sb0 = word(desc, D_SB0), sb1 = word(desc, D_SB1), sb2 = word(desc, D_SB2);
  const act = word(desc, D_ACT);
  const byRows = word(desc, D_BY_ROWS) != 0;
  const unit = byRows ? MR : NR;
  const side = byRows ? m : n;
  const perProduct = (side + unit - 1) / unit;
  const total = word(desc, D_BATCH) * perProduct;
  for (;;) {
    const u0 = atomic.add<i32>(next, chunk);
    if (u0 >= total) return;
    const u1 = min(u0 + chunk, total);
    for (let i = u0 / perProduct; i * perProduct < u1; i++) {
      const lo = max(u0 - i * perProduct, 0) * unit;
      const hi = min((u1 - i * perProduct) * unit, side);
      const ai = at(a, i * sa0), bi = at(b, i * sb0), ci = at(c, i * m * n);
      if (byRows) {
        gemmBiasAct(at(ai, lo * sa1), sa1, sa2, bi, sb1, sb2, at(ci, lo * n), n, hi - lo, n, k, scratch, bias, act);
      } else {
        const biasAt = bias == 0 ? 0 : at(bias, lo);
        gemmBiasAct(ai, sa1, sa2, at(bi, lo * sb2), sb1, sb2, at(ci, lo), n, m, hi - lo, k, scratch, biasAt, act);
      }
    }
  }
}
