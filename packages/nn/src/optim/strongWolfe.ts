import type { Tensor } from '@wiregrad/autograd';

/**
 * The minimiser of the cubic through (x1, f1, g1) and (x2, f2, g2), clamped to `bounds`
 * (default: between x1 and x2); their midpoint when the cubic has no minimum (PyTorch's
 * _cubic_interpolate, after minFunc's polyinterp).
 */
export function cubicInterpolate(
  x1: number,
  f1: number,
  g1: number,
  x2: number,
  f2: number,
  g2: number,
  bounds?: [number, number],
): number {
  const [lo, hi] = bounds ?? (x1 <= x2 ? [x1, x2] : [x2, x1]);
  const d1 = g1 + g2 - (3 * (f1 - f2)) / (x1 - x2);
  const d2Square = d1 ** 2 - g1 * g2;
  if (d2Square < 0) return (lo + hi) / 2;
  const d2 = Math.sqrt(d2Square);
  const minPos =
    x1 <= x2
      ? x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
      : x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2));
  return Math.min(Math.max(minPos, lo), hi);
}

/** f and the flat gradient at x + t d (the parameters are restored to x after). */
export type DirectionalObjective = (x: Tensor[], t: number, d: Tensor) => [number, Tensor];

export interface StrongWolfeResult {
  loss: number;
  flatGrad: Tensor;
  t: number;
  funcEvals: number;
}

/**
 * Note [Strong Wolfe line search]
 * PyTorch's _strong_wolfe (minFunc's WolfeLineSearch), step for step: from step t along d,
 * bracket a step satisfying the strong Wolfe conditions, f(t) <= f + c1 t gtd and
 * |g(t)·d| <= -c2 gtd, growing t by cubic extrapolation within [t + 0.01 (t - tPrev), 10 t];
 * then zoom into the bracket by cubic interpolation, moving a step that lands within 10 % of
 * an end away from it after two such steps ("insufficient progress"). It stops after maxLs
 * evaluations or when the bracket is narrower than toleranceChange along d, and returns the
 * lowest point found. Scalars are JS numbers (PyTorch keeps them as 0-dim tensors of the
 * parameters' dtype: identical for float64 parameters).
 */
export function strongWolfe(
  objective: DirectionalObjective,
  x: Tensor[],
  t0: number,
  d: Tensor,
  f: number,
  g0: Tensor,
  gtd: number,
  { c1 = 1e-4, c2 = 0.9, toleranceChange = 1e-9, maxLs = 25 } = {},
): StrongWolfeResult {
  let t = t0;
  const dNorm = d.abs().max().item();
  const g = g0.clone();
  let [fNew, gNew] = objective(x, t, d);
  let funcEvals = 1;
  let gtdNew = gNew.dot(d).item();
  let [tPrev, fPrev, gPrev, gtdPrev] = [0, f, g, gtd];
  let done = false;
  let lsIter = 0;
  let bracket: number[] = [];
  let bracketF: number[] = [];
  let bracketG: Tensor[] = [];
  let bracketGtd: number[] = [];
  while (lsIter < maxLs) {
    if (fNew > f + c1 * t * gtd || (lsIter > 1 && fNew >= fPrev)) {
      [bracket, bracketF, bracketG, bracketGtd] = [
        [tPrev, t],
        [fPrev, fNew],
        [gPrev, gNew.clone()],
        [gtdPrev, gtdNew],
      ];
      break;
    }
    if (Math.abs(gtdNew) <= -c2 * gtd) {
      [bracket, bracketF, bracketG] = [[t], [fNew], [gNew]];
      done = true;
      break;
    }
    if (gtdNew >= 0) {
      [bracket, bracketF, bracketG, bracketGtd] = [
        [tPrev, t],
        [fPrev, fNew],
        [gPrev, gNew.clone()],
        [gtdPrev, gtdNew],
      ];
      break;
    }
    const minStep = t + 0.01 * (t - tPrev);
    const maxStep = t * 10;
    const tmp = t;
    t = cubicInterpolate(tPrev, fPrev, gtdPrev, t, fNew, gtdNew, [minStep, maxStep]);
    [tPrev, fPrev, gPrev, gtdPrev] = [tmp, fNew, gNew.clone(), gtdNew];
    [fNew, gNew] = objective(x, t, d);
    funcEvals++;
    gtdNew = gNew.dot(d).item();
    lsIter++;
  }
  if (lsIter === maxLs)
    [bracket, bracketF, bracketG] = [
      [0, t],
      [f, fNew],
      [g, gNew],
    ];

  // zoom
  let insufProgress = false;
  let [lowPos, highPos] = bracketF[0]! <= bracketF.at(-1)! ? [0, 1] : [1, 0];
  while (!done && lsIter < maxLs) {
    const [b0, b1] = [bracket[0]!, bracket[1]!];
    if (Math.abs(b1 - b0) * dNorm < toleranceChange) break;
    t = cubicInterpolate(b0, bracketF[0]!, bracketGtd[0]!, b1, bracketF[1]!, bracketGtd[1]!);
    const [hi, lo] = [Math.max(b0, b1), Math.min(b0, b1)];
    const eps = 0.1 * (hi - lo);
    if (Math.min(hi - t, t - lo) < eps) {
      if (insufProgress || t >= hi || t <= lo) {
        t = Math.abs(t - hi) < Math.abs(t - lo) ? hi - eps : lo + eps;
        insufProgress = false;
      } else {
        insufProgress = true;
      }
    } else {
      insufProgress = false;
    }
    [fNew, gNew] = objective(x, t, d);
    funcEvals++;
    gtdNew = gNew.dot(d).item();
    lsIter++;
    if (fNew > f + c1 * t * gtd || fNew >= bracketF[lowPos]!) {
      [bracket[highPos], bracketF[highPos], bracketG[highPos], bracketGtd[highPos]] = [t, fNew, gNew.clone(), gtdNew];
      [lowPos, highPos] = bracketF[0]! <= bracketF[1]! ? [0, 1] : [1, 0];
    } else {
      if (Math.abs(gtdNew) <= -c2 * gtd) {
        done = true;
      } else if (gtdNew * (bracket[highPos]! - bracket[lowPos]!) >= 0) {
        [bracket[highPos], bracketF[highPos], bracketG[highPos], bracketGtd[highPos]] = [
          bracket[lowPos]!,
          bracketF[lowPos]!,
          bracketG[lowPos]!,
          bracketGtd[lowPos]!,
        ];
      }
      [bracket[lowPos], bracketF[lowPos], bracketG[lowPos], bracketGtd[lowPos]] = [t, fNew, gNew.clone(), gtdNew];
    }
  }
  return { loss: bracketF[lowPos]!, flatGrad: bracketG[lowPos]!, t: bracket[lowPos]!, funcEvals };
}
