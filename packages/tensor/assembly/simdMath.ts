// Vectorised exp and log for f32x4 (Cephes' polynomials), accurate to about 1 ulp.

/**
 * Note [Vector exp and log]
 * exp: x = n ln2 + r with |r| <= ln2/2, exp(r) by a degree-6 polynomial, times 2^n built
 * in the exponent bits. 2^n is applied as 2^(n>>1) * 2^(n-(n>>1)) so both factors stay
 * normal numbers over the whole range: results down to the smallest denormal are right,
 * x > 88.72 gives +inf and NaN stays NaN (wasm's min/max propagate it). When every lane of
 * a vector is within +-86 (all but the tails; NaN is not), y 2^n is a normal number, so n
 * is added to y's exponent bits instead: the same bits without the clamp, the two factors
 * and the overflow select (a 1M exp took ~20% less).
 * log: x = m 2^e with m in [sqrt(1/2), sqrt(2)), log(1+f) by a degree-9 polynomial;
 * denormals are scaled by 2^23 first; log(0) = -inf, log(x<0) = NaN, log(inf) = inf.
 * In the relaxed build (Note [Relaxed SIMD gemm]) each step of the polynomials is one fused
 * multiply-add: exp of 1M floats on 2 threads took 0.535-0.571 ms against 0.616-0.672 (idle
 * 2-core EPYC, 4 blocks of 200 each); the two builds differ by float32 rounding only. Four
 * vectors a turn instead of two changed nothing (1.05 ms on 1 thread either way).
 */
@inline function madd(acc: v128, x: v128, c: f32): v128 {
  // one fused multiply-add in the relaxed build (Note [Relaxed SIMD gemm]): the polynomials' steps
  // are most of exp's and log's instructions
  if (ASC_FEATURE_RELAXED_SIMD) return f32x4.relaxed_madd(acc, x, f32x4.splat(c));
  return f32x4.add(f32x4.mul(acc, x), f32x4.splat(c));
}

@inline function pow2(n: v128): v128 {
  return i32x4.shl(i32x4.add(n, i32x4.splat(127)), 23);
}

@inline export function expV(x: v128): v128 {
  // every lane within +-86 (none NaN): 2^n, |n| <= 124, is a normal number (the fast path below)
  const normal = i32x4.all_true(f32x4.le(f32x4.abs(x), f32x4.splat(86.0)));
  // pmin/pmax (one instruction each) keep a NaN x in the first operand; min/max cost ~8 on x64
  const xc = normal ? x : f32x4.pmax(f32x4.pmin(x, f32x4.splat(88.72283)), f32x4.splat(-104.0));
  // round to nearest by adding 1.5 * 2^23: t's low mantissa bits are n, t - magic is n as a float
  const t = f32x4.add(f32x4.mul(xc, f32x4.splat(1.44269504088896341)), f32x4.splat(12582912.0));
  const fx = f32x4.sub(t, f32x4.splat(12582912.0));
  const r = f32x4.sub(f32x4.sub(xc, f32x4.mul(fx, f32x4.splat(0.693359375))), f32x4.mul(fx, f32x4.splat(-2.12194440e-4)));
  let y = f32x4.splat(1.9875691500e-4);
  y = madd(y, r, 1.3981999507e-3);
  y = madd(y, r, 8.3334519073e-3);
  y = madd(y, r, 4.1665795894e-2);
  y = madd(y, r, 1.6666665459e-1);
  y = madd(y, r, 5.0000001201e-1);
  y = f32x4.add(f32x4.add(f32x4.mul(y, f32x4.mul(r, r)), r), f32x4.splat(1));
  const n = i32x4.sub(t, i32x4.splat(0x4b400000));
  if (normal) return i32x4.add(y, i32x4.shl(n, 23));
  const n1 = i32x4.shr_s(n, 1);
  const res = f32x4.mul(f32x4.mul(y, pow2(n1)), pow2(i32x4.sub(n, n1)));
  return v128.bitselect(f32x4.splat(Infinity), res, f32x4.gt(x, f32x4.splat(88.72283)));
}

@inline export function logV(x: v128): v128 {
  const tiny = f32x4.lt(x, f32x4.splat(1.17549435e-38));
  const xs = v128.bitselect(f32x4.mul(x, f32x4.splat(8388608.0)), x, tiny);
  let e = i32x4.sub(i32x4.shr_u(xs, 23), i32x4.splat(126));
  e = v128.bitselect(i32x4.sub(e, i32x4.splat(23)), e, tiny);
  let m = v128.or(v128.and(xs, i32x4.splat(0x807fffff)), i32x4.splat(0x3f000000));
  const small = f32x4.lt(m, f32x4.splat(0.707106781186547524));
  // m < sqrt(1/2): use 2m - 1 and e - 1, else m - 1
  e = i32x4.add(e, small); // true lanes are -1
  m = f32x4.sub(f32x4.add(m, v128.and(m, small)), f32x4.splat(1));
  const fe = f32x4.convert_i32x4_s(e);
  const z = f32x4.mul(m, m);
  let y = f32x4.splat(7.0376836292e-2);
  y = madd(y, m, -1.1514610310e-1);
  y = madd(y, m, 1.1676998740e-1);
  y = madd(y, m, -1.2420140846e-1);
  y = madd(y, m, 1.4249322787e-1);
  y = madd(y, m, -1.6668057665e-1);
  y = madd(y, m, 2.0000714765e-1);
  y = madd(y, m, -2.4999993993e-1);
  y = madd(y, m, 3.3333331174e-1);
  y = f32x4.mul(f32x4.mul(y, m), z);
  y = f32x4.add(y, f32x4.mul(fe, f32x4.splat(-2.12194440e-4)));
  y = f32x4.sub(y, f32x4.mul(z, f32x4.splat(0.5)));
  let res = f32x4.add(f32x4.add(m, y), f32x4.mul(fe, f32x4.splat(0.693359375)));
  // special values: x == 0 -> -inf, x < 0 or NaN -> NaN, +inf -> +inf
  res = v128.bitselect(f32x4.splat(-Infinity), res, f32x4.eq(x, f32x4.splat(0)));
  res = v128.bitselect(f32x4.splat(NaN), res, v128.not(f32x4.ge(x, f32x4.splat(0))));
  return v128.bitselect(x, res, f32x4.eq(x, f32x4.splat(Infinity)));
}

/**
 * Note [Vector erf]
 * erf(x) as Eigen's and XLA's float erf: x clamped to [-4, 4] (beyond it erf rounds to +-1
 * in float32), then an odd degree-13 polynomial over an even degree-8 one, both in x^2:
 * within 4.2e-7 of erf, exp-free. NaN stays NaN (pmin/pmax keep a NaN first operand), +-0
 * stays +-0. Exact GELU, 0.5 x (1 + erf(x / sqrt 2)), then loses what PyTorch's float32
 * kernel loses too: for x below about -4, 1 + erf cancels to a few bits (both give values
 * within 2.5e-7 max(|x|, 1) of the exact one).
 */
@inline export function erfV(a: v128): v128 {
  const x = f32x4.pmax(f32x4.pmin(a, f32x4.splat(4.0)), f32x4.splat(-4.0));
  const x2 = f32x4.mul(x, x);
  let p = f32x4.splat(-2.72614225801306e-10);
  p = madd(p, x2, 2.77068142495902e-8);
  p = madd(p, x2, -2.10102402082508e-6);
  p = madd(p, x2, -5.69250639462346e-5);
  p = madd(p, x2, -7.34990630326855e-4);
  p = madd(p, x2, -2.95459980854025e-3);
  p = madd(p, x2, -1.60960333262415e-2);
  let q = f32x4.splat(-1.45660718464996e-5);
  q = madd(q, x2, -2.13374055278905e-4);
  q = madd(q, x2, -1.68282697438203e-3);
  q = madd(q, x2, -7.37332916720468e-3);
  q = madd(q, x2, -1.42647390514189e-2);
  return f32x4.div(f32x4.mul(x, p), q);
}
