import { type TypedArray, typedArrayFor } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig, KernelConfigOf } from '../../../kernelRegistry.js';
import type { ExtremumKernelName } from '../../../kernelSpecs.js';
import { Tensor } from '../../../tensor.js';
import { perDtype } from '../compiledLoops.js';
import { reduceLayout, reducedShape } from './reduceLayout.js';

/** Writes the extreme value of each [O, ·, I] column over R into `vals` and its position into `idx`. */
type ExtremumLoop = (
  data: TypedArray,
  base: number,
  O: number,
  R: number,
  I: number,
  vals: TypedArray,
  idx: Int32Array,
) => void;

/**
 * Note [Extremum loops]
 * Max, Min, Argmax and Argmin share one loop, compiled per (comparison, dtype). Like torch,
 * the first extreme wins a tie and NaN beats everything: the first NaN is the answer (the
 * `best === best` guards keep a later NaN from moving the index). Along the last dim (I = 1)
 * each row is scanned with its best in locals; otherwise whole rows of I contiguous elements
 * are compared against the running bests, so memory is read in order.
 */
function compileExtremum(cmp: '>' | '<'): ExtremumLoop {
  const body = `
    for (let o = 0; o < O; o++) {
      const xb = base + o * R * I;
      if (I === 1) {
        let best = data[xb], bi = 0;
        for (let r = 1; r < R && best === best; r++) {
          const v = data[xb + r];
          if (v !== v || v ${cmp} best) { best = v; bi = r; }
        }
        vals[o] = best; idx[o] = bi;
      } else {
        const ob = o * I;
        for (let i = 0; i < I; i++) { vals[ob + i] = data[xb + i]; idx[ob + i] = 0; }
        for (let r = 1; r < R; r++) {
          const rb = xb + r * I;
          for (let i = 0; i < I; i++) {
            const best = vals[ob + i], v = data[rb + i];
            if (best === best && (v !== v || v ${cmp} best)) { vals[ob + i] = v; idx[ob + i] = r; }
          }
        }
      }
    }`;
  return new Function('data', 'base', 'O', 'R', 'I', 'vals', 'idx', body) as ExtremumLoop;
}

/**
 * Max/Min ([x], {dim, keepdim} -> [values] without a dim, [values, indices] with one) and
 * Argmax/Argmin (-> [indices]; without a dim, an index into the flattened tensor).
 */
function extremumKernel(
  kernelName: ExtremumKernelName,
  cmp: '>' | '<',
  valuesOut: boolean,
): KernelConfigOf<ExtremumKernelName> {
  const loopFor = perDtype(() => compileExtremum(cmp));
  return {
    kernelName,
    device: 'cpu',
    kernelFunc: ([x], attrs) => {
      // one compiled loop per comparison and dtype (Note [Extremum loops])
      const dim = attrs.dim;
      const keepdim = attrs.keepdim;
      const dims = dim === null ? [] : [dim];
      const { data, base, O, R, I, keptShape } = reduceLayout(x!, dims);
      const shape = reducedShape(keptShape, dims, keepdim);
      const indices = Tensor.empty(shape, 'int32');
      const values = valuesOut ? Tensor.empty(shape, x!.dtype) : null;
      const vals = values ? values.storage.data : typedArrayFor(x!.dtype, O * I);
      loopFor(x!.dtype)(data, base, O, R, I, vals, indices.storage.data as Int32Array);
      if (!values) return [indices];
      return dim === null ? [values] : [values, indices];
    },
  };
}

export const argreduceKernels: KernelConfig[] = [
  extremumKernel(K.Max, '>', true),
  extremumKernel(K.Min, '<', true),
  extremumKernel(K.Argmax, '>', false),
  extremumKernel(K.Argmin, '<', false),
];
