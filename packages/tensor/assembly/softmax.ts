// f32 softmax and log-softmax along contiguous rows (the last dim); see Note [Stable softmax] in the TS kernel.
import { expV, logV } from './simdMath';

function rowMax(x: usize, n: i32): f32 {
  let m = f32x4.splat(-Infinity);
  let i = 0;
  for (; i + 4 <= n; i += 4) m = f32x4.max(m, v128.load(x + (<usize>i << 2)));
  let s = max(max(f32x4.extract_lane(m, 0), f32x4.extract_lane(m, 1)), max(f32x4.extract_lane(m, 2), f32x4.extract_lane(m, 3)));
  for (; i < n; i++) s = max(s, load<f32>(x + (<usize>i << 2)));
  return s;
}

@inline function expScalar(v: f32): f32 {
  return f32x4.extract_lane(expV(f32x4.splat(v)), 0);
}

/** out = exp(x - m) (when `write`); returns the float64 sum of exp(x - m). */
function expShiftSum(x: usize, n: i32, m: f32, out: usize, write: bool): f64 {
  const vm = f32x4.splat(m);
  let acc = f64x2.splat(0);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const off = <usize>i << 2;
    const e = expV(f32x4.sub(v128.load(x + off), vm));
    if (write) v128.store(out + off, e);
    acc = f64x2.add(acc, f64x2.add(f64x2.promote_low_f32x4(e), f64x2.promote_low_f32x4(v128.shuffle<f32>(e, e, 2, 3, 0, 1))));
  }
  let s = f64x2.extract_lane(acc, 0) + f64x2.extract_lane(acc, 1);
  for (; i < n; i++) {
    const off = <usize>i << 2;
    const e = expScalar(load<f32>(x + off) - m);
    if (write) store<f32>(out + off, e);
    s += <f64>e;
  }
  return s;
}

/** out[i] = x[i] - shift (log) or x[i] * factor, over n floats; rows are never overrun. */
function finish(x: usize, out: usize, n: i32, value: f32, log: bool): void {
  const v = f32x4.splat(value);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const off = <usize>i << 2;
    v128.store(out + off, log ? f32x4.sub(v128.load(x + off), v) : f32x4.mul(v128.load(out + off), v));
  }
  for (; i < n; i++) {
    const off = <usize>i << 2;
    store<f32>(out + off, log ? load<f32>(x + off) - value : load<f32>(out + off) * value);
  }
}

/** Softmax (log = 0) or log-softmax (log = 1) of `rows` contiguous rows of n floats. */
export function softmaxF32(x: usize, out: usize, rows: i32, n: i32, log: i32): void {
  for (let k = 0; k < rows; k++) {
    const xr = x + (<usize>(k * n) << 2);
    const orow = out + (<usize>(k * n) << 2);
    let m = rowMax(xr, n);
    if (m == -Infinity) m = 0;
    const s = expShiftSum(xr, n, m, orow, log == 0);
    if (log != 0) finish(xr, orow, n, m + f32x4.extract_lane(logV(f32x4.splat(<f32>s)), 0), true);
    else finish(xr, orow, n, <f32>(1 / s), false);
  }
}
