// f32 sums with float64 accumulators, over the [O, R, I] layout of Note [Reduction layout].

@inline function widenSum(acc: v128, v: v128): v128 {
  const lo = f64x2.promote_low_f32x4(v);
  const hi = f64x2.promote_low_f32x4(v128.shuffle<f32>(v, v, 2, 3, 0, 1));
  return f64x2.add(acc, f64x2.add(lo, hi));
}

/** Sum of n contiguous floats, accumulated in float64. */
function sumRow(x: usize, n: i32): f64 {
  let a0 = f64x2.splat(0);
  let a1 = f64x2.splat(0);
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const p = x + (<usize>i << 2);
    a0 = widenSum(a0, v128.load(p));
    a1 = widenSum(a1, v128.load(p, 16));
  }
  const a = f64x2.add(a0, a1);
  let s = f64x2.extract_lane(a, 0) + f64x2.extract_lane(a, 1);
  for (; i < n; i++) s += <f64>load<f32>(x + (<usize>i << 2));
  return s;
}

/**
 * out[o, i] = sum over r of x[o, r, i] (x contiguous). I == 1 sums rows; otherwise whole rows
 * of I elements are added into `acc` (I float64 slots of scratch, padded to 2).
 */
export function sumF32(x: usize, o: i32, r: i32, i: i32, out: usize, acc: usize): void {
  if (i == 1) {
    for (let k = 0; k < o; k++) store<f32>(out + (<usize>k << 2), <f32>sumRow(x + (<usize>(k * r) << 2), r));
    return;
  }
  for (let k = 0; k < o; k++) {
    memory.fill(acc, 0, <usize>i << 3);
    for (let rr = 0; rr < r; rr++) {
      const row = x + (<usize>((k * r + rr) * i) << 2);
      let j = 0;
      for (; j + 4 <= i; j += 4) {
        const v = v128.load(row + (<usize>j << 2));
        const p = acc + (<usize>j << 3);
        v128.store(p, f64x2.add(v128.load(p), f64x2.promote_low_f32x4(v)));
        v128.store(p, f64x2.add(v128.load(p, 16), f64x2.promote_low_f32x4(v128.shuffle<f32>(v, v, 2, 3, 0, 1))), 16);
      }
      for (; j < i; j++) {
        const p = acc + (<usize>j << 3);
        store<f64>(p, load<f64>(p) + <f64>load<f32>(row + (<usize>j << 2)));
      }
    }
    const dst = out + (<usize>(k * i) << 2);
    for (let j = 0; j < i; j++) store<f32>(dst + (<usize>j << 2), <f32>load<f64>(acc + (<usize>j << 3)));
  }
}
