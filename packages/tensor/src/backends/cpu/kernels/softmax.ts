import type { TypedArray } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig, KernelConfigOf } from '../../../kernelRegistry.js';
import type { SoftmaxKernelName } from '../../../kernelSpecs.js';
import { Tensor } from '../../../tensor.js';
import { wasmSoftmaxRows } from '../wasm/wasmReduce.js';
import { reduceLayout } from './reduceLayout.js';

/**
 * Note [Stable softmax]
 * softmax(x) = exp(x - m) / sum(exp(x - m)) and logSoftmax(x) = x - m - log(sum(exp(x - m)))
 * with m the max along the dim, so exp never overflows. A slice that is all -inf keeps m = 0
 * (giving NaN like torch rather than -inf - -inf); a NaN anywhere in a slice makes the whole
 * slice NaN, as in torch. Sums are float64 whatever the dtype.
 */
function softmaxRows(x: TypedArray, xb: number, out: TypedArray, ob: number, R: number, logOut: boolean): void {
  let m = -Infinity;
  for (let r = 0; r < R; r++) {
    const v = x[xb + r]!;
    if (v > m) m = v;
  }
  if (m === -Infinity) m = 0;
  let s = 0;
  if (logOut) {
    for (let r = 0; r < R; r++) s += Math.exp(x[xb + r]! - m);
    const lse = m + Math.log(s);
    for (let r = 0; r < R; r++) out[ob + r] = x[xb + r]! - lse;
    return;
  }
  for (let r = 0; r < R; r++) {
    const e = Math.exp(x[xb + r]! - m);
    out[ob + r] = e;
    s += e;
  }
  const inv = 1 / s;
  for (let r = 0; r < R; r++) out[ob + r] = out[ob + r]! * inv;
}

/** The same along a dim with inner size I > 1: whole rows of I elements at a time, with per-column max and sum. */
function softmaxColumns(
  x: TypedArray,
  xb: number,
  out: TypedArray,
  ob: number,
  R: number,
  I: number,
  logOut: boolean,
  m: Float64Array,
  s: Float64Array,
): void {
  m.fill(-Infinity);
  s.fill(0);
  for (let r = 0; r < R; r++) {
    const rb = xb + r * I;
    for (let i = 0; i < I; i++) {
      const v = x[rb + i]!;
      if (v > m[i]!) m[i] = v;
    }
  }
  for (let i = 0; i < I; i++) if (m[i] === -Infinity) m[i] = 0;
  for (let r = 0; r < R; r++) {
    const rb = xb + r * I;
    const wb = ob + r * I;
    for (let i = 0; i < I; i++) {
      const e = Math.exp(x[rb + i]! - m[i]!);
      if (!logOut) out[wb + i] = e;
      s[i] = s[i]! + e;
    }
  }
  // s becomes the per-column factor (1 / sum) or shift (m + log(sum))
  for (let i = 0; i < I; i++) s[i] = logOut ? m[i]! + Math.log(s[i]!) : 1 / s[i]!;
  for (let r = 0; r < R; r++) {
    const rb = xb + r * I;
    const wb = ob + r * I;
    if (logOut) for (let i = 0; i < I; i++) out[wb + i] = x[rb + i]! - s[i]!;
    else for (let i = 0; i < I; i++) out[wb + i] = out[wb + i]! * s[i]!;
  }
}

/** Softmax / LogSoftmax: [x], {dim}; output of x's (float) dtype and shape. See Note [Reduction layout]. */
function softmaxKernel(kernelName: SoftmaxKernelName, logOut: boolean): KernelConfigOf<SoftmaxKernelName> {
  return {
    kernelName,
    device: 'cpu',
    kernelFunc: ([x], attrs) => {
      const { data, base, O, R, I } = reduceLayout(x!, [attrs.dim]);
      const out = Tensor.empty(x!.shape, x!.dtype);
      const o_ = out.storage.data;
      if (I === 1) {
        if (wasmSoftmaxRows(data, base, O, R, o_, logOut)) return [out];
        for (let o = 0; o < O; o++) softmaxRows(data, base + o * R, o_, o * R, R, logOut);
      } else {
        const m = new Float64Array(I);
        const s = new Float64Array(I);
        for (let o = 0; o < O; o++) softmaxColumns(data, base + o * R * I, o_, o * R * I, R, I, logOut, m, s);
      }
      return [out];
    },
  };
}

export const softmaxKernels: KernelConfig[] = [softmaxKernel(K.Softmax, false), softmaxKernel(K.LogSoftmax, true)];
