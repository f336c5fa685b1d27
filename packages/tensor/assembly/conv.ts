// f32 sliding-window kernels (Note [Wasm im2col]): Im2Col and its adjoint Col2Im over (n, c) planes.

// The geometry block (i32 words) both kernels read, written by src/backends/cpu/wasm/wasmConv.ts.
const G_C = 0, G_H = 1, G_W = 2;
const G_S0 = 3, G_S1 = 4, G_S2 = 5, G_S3 = 6;
const G_KH = 7, G_KW = 8, G_SH = 9, G_SW = 10, G_PT = 11, G_PL = 12, G_DH = 13, G_DW = 14;
const G_OH = 15, G_OW = 16;

@inline function geo(g: usize, i: i32): i32 {
  return load<i32>(g + (<usize>i << 2));
}

/** First output column j whose input column j·sw - pl + off is >= 0 (at most ow). */
@inline function firstInside(off: i32, pl: i32, sw: i32, ow: i32): i32 {
  const need = pl - off;
  const j = need <= 0 ? 0 : (need + sw - 1) / sw;
  return j < ow ? j : ow;
}

/** One past the last output column whose input column is < W (at most ow). */
@inline function endInside(off: i32, pl: i32, sw: i32, W: i32, ow: i32): i32 {
  const last = W - 1 + pl - off;
  if (last < 0) return 0;
  const e = last / sw + 1;
  return e < ow ? e : ow;
}

/** Writes `value` to n floats at dst (vectors, then a scalar tail: never past dst + 4n). */
@inline function fill(dst: usize, value: f32, n: i32): void {
  const v = f32x4.splat(value);
  let j = 0;
  for (; j + 4 <= n; j += 4) v128.store(dst + (<usize>j << 2), v);
  for (; j < n; j++) store<f32>(dst + (<usize>j << 2), value);
}

/**
 * Im2Col of the planes [p0, p1) (plane p = n·C + c) of x (element strides s0..s3) into the
 * contiguous [N, C·kh·kw, oh·ow] columns at out: row (c, ki, kj) of sample n holds, at column
 * i·ow + j, x[n, c, i·sh - pt + ki·dh, j·sw - pl + kj·dw], or padValue outside the input.
 */
export function im2colF32(x: usize, g: usize, padValue: f32, out: usize, p0: i32, p1: i32): void {
  const C = geo(g, G_C), H = geo(g, G_H), W = geo(g, G_W);
  const s0 = geo(g, G_S0), s1 = geo(g, G_S1), s2 = geo(g, G_S2), s3 = geo(g, G_S3);
  const kh = geo(g, G_KH), kw = geo(g, G_KW), sh = geo(g, G_SH), sw = geo(g, G_SW);
  const pt = geo(g, G_PT), pl = geo(g, G_PL), dh = geo(g, G_DH), dw = geo(g, G_DW);
  const oh = geo(g, G_OH), ow = geo(g, G_OW);
  const L = oh * ow;
  for (let p = p0; p < p1; p++) {
    const n = p / C, c = p % C;
    const plane = x + (<usize>(n * s0 + c * s1) << 2);
    let dst = out + (<usize>(p * kh * kw * L) << 2);
    for (let ki = 0; ki < kh; ki++) {
      for (let kj = 0; kj < kw; kj++) {
        const off = kj * dw;
        const j0 = firstInside(off, pl, sw, ow);
        const end = endInside(off, pl, sw, W, ow);
        const j1 = end > j0 ? end : j0;
        for (let i = 0; i < oh; i++) {
          const ih = i * sh - pt + ki * dh;
          if (ih < 0 || ih >= H) {
            fill(dst, padValue, ow);
            dst += <usize>ow << 2;
            continue;
          }
          fill(dst, padValue, j0);
          const row = plane + (<usize>(ih * s2) << 2);
          let j = j0;
          if (sw == 1 && s3 == 1) {
            // a contiguous run of the input row: vectors, then a scalar tail
            let src = row + (<usize>(j0 - pl + off) << 2);
            for (; j + 4 <= j1; j += 4, src += 16) v128.store(dst + (<usize>j << 2), v128.load(src));
            for (; j < j1; j++, src += 4) store<f32>(dst + (<usize>j << 2), load<f32>(src));
          } else {
            for (; j < j1; j++) store<f32>(dst + (<usize>j << 2), load<f32>(row + (<usize>((j * sw - pl + off) * s3) << 2)));
          }
          fill(dst + (<usize>j1 << 2), padValue, ow - j1);
          dst += <usize>ow << 2;
        }
      }
    }
  }
}

/**
 * Col2Im of the planes [p0, p1) into the contiguous [N, C, H, W] image at out: each column value
 * of cols (element strides s0, s1, s2 of [N, C·kh·kw, oh·ow]) is added to the input position
 * Im2Col read it from; positions in the padding are dropped. Each plane is zeroed first.
 */
export function col2imF32(cols: usize, g: usize, out: usize, p0: i32, p1: i32): void {
  const C = geo(g, G_C), H = geo(g, G_H), W = geo(g, G_W);
  const s0 = geo(g, G_S0), s1 = geo(g, G_S1), s2 = geo(g, G_S2);
  const kh = geo(g, G_KH), kw = geo(g, G_KW), sh = geo(g, G_SH), sw = geo(g, G_SW);
  const pt = geo(g, G_PT), pl = geo(g, G_PL), dh = geo(g, G_DH), dw = geo(g, G_DW);
  const oh = geo(g, G_OH), ow = geo(g, G_OW);
  for (let p = p0; p < p1; p++) {
    const n = p / C, c = p % C;
    const plane = out + (<usize>(p * H * W) << 2);
    fill(plane, 0, H * W);
    for (let ki = 0; ki < kh; ki++) {
      for (let kj = 0; kj < kw; kj++) {
        const off = kj * dw;
        const j0 = firstInside(off, pl, sw, ow);
        const j1 = endInside(off, pl, sw, W, ow);
        const rowOf = cols + (<usize>(n * s0 + ((c * kh + ki) * kw + kj) * s1) << 2);
        for (let i = 0; i < oh; i++) {
          const ih = i * sh - pt + ki * dh;
          if (ih < 0 || ih >= H) continue;
          const dstRow = plane + (<usize>(ih * W) << 2);
          const src = rowOf + (<usize>(i * ow * s2) << 2);
          let j = j0;
          if (sw == 1 && s2 == 1) {
            // contiguous on both sides: vector adds, then a scalar tail
            for (; j + 4 <= j1; j += 4) {
              const at = dstRow + (<usize>(j - pl + off) << 2);
              v128.store(at, f32x4.add(v128.load(at), v128.load(src + (<usize>j << 2))));
            }
          }
          for (; j < j1; j++) {
            const at = dstRow + (<usize>(j * sw - pl + off) << 2);
            store<f32>(at, load<f32>(at) + load<f32>(src + (<usize>(j * s2) << 2)));
          }
        }
      }
    }
  }
}
