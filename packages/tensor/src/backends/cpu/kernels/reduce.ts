import type { DType } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig, KernelFunc } from '../../../kernelRegistry.js';
import { Tensor } from '../../../tensor.js';
import { reduceLayout } from './reduceLayout.js';

function outShape(keptShape: readonly number[], dims: readonly number[], keepdim: boolean): number[] {
  if (keepdim) return [...keptShape];
  const all = dims.length === 0 ? keptShape.map((_, i) => i) : dims;
  return keptShape.filter((_, i) => !all.includes(i));
}

/** Sum and Prod: accumulate in float64 (JS numbers), write in the input's dtype. See Note [Reduction layout]. */
function foldKernel(kernelName: string, init: number, isSum: boolean): KernelConfig {
  const kernelFunc: KernelFunc = ([x], attrs) => {
    const dims = attrs.dims as number[];
    const { data, base, O, R, I, keptShape } = reduceLayout(x!, dims);
    const acc = new Float64Array(O * I).fill(init);
    for (let o = 0; o < O; o++) {
      const ab = o * I;
      for (let r = 0; r < R; r++) {
        const xb = base + (o * R + r) * I;
        if (isSum) for (let i = 0; i < I; i++) acc[ab + i] = acc[ab + i]! + data[xb + i]!;
        else for (let i = 0; i < I; i++) acc[ab + i] = acc[ab + i]! * data[xb + i]!;
      }
    }
    const out = Tensor.empty(outShape(keptShape, dims, attrs.keepdim as boolean), x!.dtype as DType);
    out.storage.data.set(acc);
    return [out];
  };
  return { kernelName, device: 'cpu', kernelFunc };
}

/** Max/Min/Argmax/Argmin along one dim (or over everything when dim is null); NaN wins like torch. */
function extremumKernel(kernelName: string, isMax: boolean, valuesOut: boolean): KernelConfig {
  const kernelFunc: KernelFunc = ([x], attrs) => {
    const dim = attrs.dim as number | null;
    const keepdim = attrs.keepdim as boolean;
    const dims = dim === null ? [] : [dim];
    const { data, base, O, R, I, keptShape } = reduceLayout(x!, dims);
    const values = new Float64Array(O * I);
    const indices = new Int32Array(O * I);
    for (let o = 0; o < O; o++) {
      for (let i = 0; i < I; i++) {
        let best = data[base + o * R * I + i]!;
        let bi = 0;
        for (let r = 1; r < R && best === best; r++) {
          const v = data[base + (o * R + r) * I + i]!;
          if (v !== v || (isMax ? v > best : v < best)) {
            best = v;
            bi = r;
          }
        }
        values[o * I + i] = best;
        indices[o * I + i] = bi;
      }
    }
    const shape = dim === null ? (keepdim ? keptShape : []) : outShape(keptShape, dims, keepdim);
    const idx = Tensor.empty(shape, 'int32');
    idx.storage.data.set(indices);
    if (!valuesOut) return [idx];
    const vals = Tensor.empty(shape, x!.dtype);
    vals.storage.data.set(values);
    return dim === null ? [vals] : [vals, idx];
  };
  return { kernelName, device: 'cpu', kernelFunc };
}

export const reduceKernels: KernelConfig[] = [
  foldKernel(K.Sum, 0, true),
  foldKernel(K.Prod, 1, false),
  extremumKernel(K.Max, true, true),
  extremumKernel(K.Min, false, true),
  extremumKernel(K.Argmax, true, false),
  extremumKernel(K.Argmin, false, false),
];
