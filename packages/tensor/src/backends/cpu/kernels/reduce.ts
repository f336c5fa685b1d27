import type { DType, TypedArray } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig, KernelConfigOf } from '../../../kernelRegistry.js';
import type { FoldKernelName } from '../../../kernelSpecs.js';
import { Tensor } from '../../../tensor.js';
import { perDtype } from '../compiledLoops.js';
import { wasmSum } from '../wasm/wasmReduce.js';
import { reduceLayout, reducedShape } from './reduceLayout.js';

/** Folds the [O, R, I] layout over R into `out` ([O, I]). See Note [Reduction layout]. */
type FoldLoop = (data: TypedArray, base: number, O: number, R: number, I: number, out: TypedArray) => void;

/**
 * Note [Fold loops]
 * Sum and Prod are one loop with a different step, compiled per (kernel, dtype) like the
 * elementwise loops. Accumulators are JS numbers (float64) whatever the dtype, so float32
 * sums are more accurate than a float32 accumulator and int32 sums are exact up to 2^53
 * before the store wraps them like an int overflow. Reducing the last dim (I = 1) runs four
 * independent accumulators so the adds pipeline; other layouts walk rows of I contiguous
 * elements into a float64 scratch row.
 */
function compileFold(init: number, step: (acc: string, v: string) => string, combine: string): FoldLoop {
  const body = `
    const acc = I === 1 ? null : new Float64Array(I);
    for (let o = 0; o < O; o++) {
      const xb = base + o * R * I;
      if (I === 1) {
        let a0 = ${init}, a1 = ${init}, a2 = ${init}, a3 = ${init};
        let r = 0;
        for (; r + 3 < R; r += 4) {
          a0 = ${step('a0', 'data[xb + r]')}; a1 = ${step('a1', 'data[xb + r + 1]')};
          a2 = ${step('a2', 'data[xb + r + 2]')}; a3 = ${step('a3', 'data[xb + r + 3]')};
        }
        for (; r < R; r++) a0 = ${step('a0', 'data[xb + r]')};
        out[o] = ${combine};
      } else {
        acc.fill(${init});
        for (let r = 0; r < R; r++) {
          const rb = xb + r * I;
          for (let i = 0; i < I; i++) acc[i] = ${step('acc[i]', 'data[rb + i]')};
        }
        out.set(acc, o * I);
      }
    }`;
  return new Function('data', 'base', 'O', 'R', 'I', 'out', body) as FoldLoop;
}

const FOLDS: Record<string, (dtype: DType) => FoldLoop> = {
  [K.Sum]: perDtype(() => compileFold(0, (acc, v) => `${acc} + ${v}`, '(a0 + a1) + (a2 + a3)')),
  [K.Prod]: perDtype(() => compileFold(1, (acc, v) => `${acc} * ${v}`, '(a0 * a1) * (a2 * a3)')),
};

/** Sum and Prod: [x], {dims, keepdim}; the output has x's dtype (the op casts bool to int32). */
function foldKernel(kernelName: FoldKernelName): KernelConfigOf<FoldKernelName> {
  const loopFor = FOLDS[kernelName]!;
  return {
    kernelName,
    device: 'cpu',
    kernelFunc: ([x], attrs) => {
      const dims = attrs.dims;
      const dtype: DType = x!.dtype;
      const loop = loopFor(dtype); // Note [Fold loops]
      const { data, base, O, R, I, keptShape } = reduceLayout(x!, dims);
      const out = Tensor.empty(reducedShape(keptShape, dims, attrs.keepdim), dtype);
      if (kernelName !== K.Sum || !wasmSum(data, base, O, R, I, out.storage.data))
        loop(data, base, O, R, I, out.storage.data);
      return [out];
    },
  };
}

export const reduceKernels: KernelConfig[] = [foldKernel(K.Sum), foldKernel(K.Prod)];
