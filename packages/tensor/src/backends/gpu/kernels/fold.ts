import type { DType } from '../../../dtype.js';
import { castExpr } from '../gpuMap.js';
import { type GpuValue, kernel, launch, release } from '../gpuRuntime.js';

/**
 * Note [gpu folds in passes]
 * A reduction of a contiguous [O, R, I] input folds at most CHUNK elements per thread:
 * one pass turns [O, R, I] into [O, ceil(R / CHUNK), I], and passes repeat until one value
 * is left per (o, i). No thread loops longer than CHUNK, so gpu.js's loop cap
 * (loopMaxIterations, which silently cuts longer loops) is never reached, a reduction of
 * a million elements runs on thousands of threads instead of one, and float32 sums are
 * summed pairwise-like (closer to the cpu's float64 sums than one long running sum).
 * max/min propagate NaN like the cpu (`v !== v`). Arg reductions are two folds: the
 * extremum, then the least r whose value equals it (the first occurrence, like the cpu).
 */
const CHUNK = 256;

export type FoldKind = 'sum' | 'prod' | 'max' | 'min' | 'firstEqual';

const STEPS: Record<FoldKind, { init: string; step: string }> = {
  sum: { init: '0', step: 'acc += v;' },
  prod: { init: '1', step: 'acc *= v;' },
  // the first element always replaces the initial value (GLSL has no Infinity literal); NaN sticks
  max: { init: '0', step: 'if (r === 0 || v > acc || v !== v) acc = v;' },
  min: { init: '0', step: 'if (r === 0 || v < acc || v !== v) acc = v;' },
  firstEqual: { init: '0', step: 'if (r === 0 || v < acc) acc = v;' },
};

// meta [I, Q, R]: output element (o, q, i) folds input (o, r, i) for r in [q * CHUNK, min(R, (q + 1) * CHUNK))
function source(kind: FoldKind, firstPass: boolean, dtype: DType): string {
  // the first pass of firstEqual maps each value to its r when it equals the extremum m (NaN equals NaN), else to R
  const value =
    kind === 'firstEqual' && firstPass
      ? '(x[idx] === m[k] || (x[idx] !== x[idx] && m[k] !== m[k])) ? r0 + r : meta[2]'
      : 'x[idx]';
  const { init, step } = STEPS[kind === 'firstEqual' && !firstPass ? 'min' : kind];
  return `function (meta, x${kind === 'firstEqual' && firstPass ? ', m' : ''}) {
const e = this.thread.x;
const oq = Math.floor((e + 0.5) / meta[0]);
const i = e - oq * meta[0];
const o = Math.floor((oq + 0.5) / meta[1]);
const q = oq - o * meta[1];
const k = o * meta[0] + i;
const r0 = q * ${CHUNK};
const n = Math.min(${CHUNK}, meta[2] - r0);
let idx = (o * meta[2] + r0) * meta[0] + i;
let acc = ${init};
for (let r = 0; r < n; r++) {
  const v = ${value};
  ${step}
  idx += meta[0];
}
return ${castExpr('acc', dtype)};
}`;
}

/**
 * Folds the contiguous [O, R, I] value `x` over R into an [O, I] value of `dtype`
 * (firstEqual: int32 indices, with `m` the [O, I] extremum). Intermediate passes are freed.
 */
export function foldValue(
  kind: FoldKind,
  x: GpuValue,
  O: number,
  R: number,
  I: number,
  dtype: DType,
  m?: GpuValue,
): GpuValue {
  let cur = x;
  let r = R;
  let first = true;
  do {
    const q = Math.max(1, Math.ceil(r / CHUNK));
    const k = kernel(`fold:${kind}:${first}:${dtype}`, () => source(kind, first, dtype));
    const next = launch(k, O * q * I, [[I, q, r], cur, ...(kind === 'firstEqual' && first ? [m] : [])]);
    if (!first) release(cur);
    cur = next;
    r = q;
    first = false;
  } while (r > 1);
  return cur;
}
