/**
 * erf(x) accurate to ~1e-15: the Maclaurin series below |x| < 3, and the continued
 * fraction for erfc above (Math has no erf; gelu and its gradient need float64 accuracy
 * for gradcheck).
 */
export function erf(x: number): number {
  if (x !== x) return x;
  const ax = Math.abs(x);
  if (ax < 3) {
    let term = x;
    let sum = x;
    const x2 = x * x;
    for (let n = 1; n < 100; n++) {
      term *= -x2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return sum * 1.1283791670955126; // 2 / sqrt(pi)
  }
  if (ax > 6) return Math.sign(x);
  // Lentz's continued fraction for erfc(ax) = exp(-ax^2)/sqrt(pi) * 1/(ax + 1/2/(ax + 1/(ax + 3/2/(ax + ...))))
  let f = ax;
  for (let k = 60; k >= 1; k--) f = ax + k / 2 / f;
  const erfc = Math.exp(-ax * ax) / (f * 1.7724538509055159);
  return x > 0 ? 1 - erfc : erfc - 1;
}
