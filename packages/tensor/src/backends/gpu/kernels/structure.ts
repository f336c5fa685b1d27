import type { Device } from '../../../device.js';
import * as K from '../../../kernelNames.js';
import { TensorError } from '../../../errors.js';
import type { KernelConfig, KernelConfigOf } from '../../../kernelRegistry.js';
import type { IndexAddKernelName } from '../../../kernelSpecs.js';
import { numelOf } from '../../../shape.js';
import type { Tensor } from '../../../tensor.js';
import { castExpr, gpuMap } from '../gpuMap.js';
import { MAX_LOOP, kernel, launch } from '../gpuRuntime.js';
import { MAX_RANK, coordsSource, gpuTensor, offsetSource, operandMeta, shapeMeta, valueOf } from '../gpuTensor.js';

/** The padded position of `dim` of a tensor of rank `ndim` (kernels are specialised on it). */
const padded = (dim: number, ndim: number): number => MAX_RANK - ndim + dim;
/** Operand offsets in meta after the output shape: operand k's [offset, strides] start here. */
const at = (k: number): number => MAX_RANK + k * (MAX_RANK + 1);
/** The coordinate list with coordinate `pd` replaced. */
const replaced = (pd: number, value: string) => (d: number) => (d === pd ? value : `c${d}`);

function run(
  key: string,
  source: () => string,
  shape: readonly number[],
  meta: number[],
  args: unknown[],
  like: Tensor,
  device: Device = like.device,
): Tensor {
  const value = launch(kernel(key, source), numelOf(shape), [meta, ...args]);
  return gpuTensor(value, shape, like.dtype, device);
}

/** Gather [x, index] {dim}: out[c] = x[c with c[dim] = index[c]]. */
const gather: KernelConfig = {
  kernelName: K.Gather,
  device: 'gpu',
  kernelFunc: ([x, index], attrs) => {
    const pd = padded(attrs.dim, x!.ndim);
    const shape = index!.shape;
    const meta = [...shapeMeta(shape), ...operandMeta(index!, shape), ...operandMeta(x!, x!.shape)];
    const source = () => `function (meta, x, index) {
${coordsSource(0)}
const ii = ${offsetSource(at(0))};
const j = index[ii];
const xi = ${offsetSource(at(1), replaced(pd, 'j'))};
return x[xi];
}`;
    return [run(`gather:${pd}`, source, shape, meta, [valueOf(x!), valueOf(index!)], x!)];
  },
};

/** IndexSelect [x, index (1-D)] {dim}: out[c] = x[c with c[dim] = index[c[dim]]]. */
const indexSelect: KernelConfig = {
  kernelName: K.IndexSelect,
  device: 'gpu',
  kernelFunc: ([x, index], attrs) => {
    const dim = attrs.dim;
    const pd = padded(dim, x!.ndim);
    const shape = x!.shape.map((s, d) => (d === dim ? index!.numel : s));
    const meta = [...shapeMeta(shape), ...operandMeta(x!, x!.shape), index!.offset, index!.strides[0] ?? 0];
    const source = () => `function (meta, x, index) {
${coordsSource(0)}
const ii = meta[${at(1)}] + c${pd} * meta[${at(1) + 1}];
const j = index[ii];
const xi = ${offsetSource(at(0), replaced(pd, 'j'))};
return x[xi];
}`;
    return [run(`indexSelect:${pd}`, source, shape, meta, [valueOf(x!), valueOf(index!)], x!)];
  },
};

/** OneHot [index] {numClasses} -> int32 [...index.shape, numClasses]. */
const oneHot: KernelConfig = {
  kernelName: K.OneHot,
  device: 'gpu',
  kernelFunc: ([index], attrs) => {
    const C = attrs.numClasses;
    const shape = [...index!.shape, C];
    const flat = gpuMap(K.Copy, 'x', [index!], 'int32');
    const source = () => `function (meta, index) {
const e = this.thread.x;
const q = Math.floor((e + 0.5) / meta[0]);
return index[q] === e - q * meta[0] ? 1 : 0;
}`;
    return [run('oneHot', source, shape, [C], [valueOf(flat)], flat)];
  },
};

/** SliceScatter [src] {inputShape, dim, start, end, step}: zeros(inputShape) with the slice = src. */
const sliceScatter: KernelConfig = {
  kernelName: K.SliceScatter,
  device: 'gpu',
  kernelFunc: ([src], attrs) => {
    const { inputShape, dim, start, end, step } = attrs;
    const pd = padded(dim, inputShape.length);
    const meta = [...shapeMeta(inputShape), ...operandMeta(src!, src!.shape), start, end, step];
    const p = at(1);
    const source = () => `function (meta, src) {
${coordsSource(0)}
const j = c${pd} - meta[${p}];
const k = Math.floor((j + 0.5) / meta[${p + 2}]);
if (j < 0 || c${pd} >= meta[${p + 1}] || j !== k * meta[${p + 2}]) return 0;
const si = ${offsetSource(at(0), replaced(pd, 'k'))};
return src[si];
}`;
    return [run(`sliceScatter:${pd}`, source, inputShape, meta, [valueOf(src!)], src!)];
  },
};

/**
 * ScatterAdd [x, index, src] {dim} and IndexAdd [x, index (1-D), src] {dim}: out = x plus, for
 * every j along dim whose index equals the output's coordinate there, src at j. Each output
 * element loops over the indexed dim (no atomics needed, and a deterministic sum order).
 */
function addInto(kernelName: IndexAddKernelName, perElement: boolean): KernelConfigOf<IndexAddKernelName> {
  return {
    kernelName,
    device: 'gpu',
    kernelFunc: ([x, index, src], attrs) => {
      const dim = attrs.dim;
      const pd = padded(dim, x!.ndim);
      const len = perElement ? index!.shape[dim]! : index!.numel;
      if (len > MAX_LOOP)
        throw new TensorError(
          'UNSUPPORTED',
          `${kernelName} on the gpu takes at most ${MAX_LOOP} indices along dim ${dim}, got ${len}`,
        );
      const idxMeta = perElement
        ? operandMeta(index!, index!.shape)
        : [index!.offset, ...new Array<number>(MAX_RANK).fill(0)];
      if (!perElement) idxMeta[1 + pd] = index!.strides[0] ?? 0;
      const limits = perElement ? shapeMeta(index!.shape) : shapeMeta(x!.shape).map((s, d) => (d === pd ? len : s));
      const meta = [
        ...shapeMeta(x!.shape),
        ...operandMeta(x!, x!.shape),
        ...idxMeta,
        ...operandMeta(src!, src!.shape),
        ...limits,
      ];
      const lim = at(3);
      const inRange = [...Array(MAX_RANK).keys()].filter((d) => d !== pd).map((d) => `c${d} < meta[${lim + d}]`);
      const source = () => `function (meta, len, x, index, src) {
${coordsSource(0)}
const xi = ${offsetSource(at(0))};
let acc = x[xi];
let inRange = 1;
${inRange.map((cond) => `if (!(${cond})) inRange = 0;`).join('\n')}
if (inRange === 1) {
  for (let j = 0; j < len; j++) {
    const ii = ${offsetSource(at(1), replaced(pd, 'j'))};
    const si = ${offsetSource(at(2), replaced(pd, 'j'))};
    if (index[ii] === c${pd}) acc += src[si];
  }
}
return ${castExpr('acc', x!.dtype)};
}`;
      return [
        run(
          `${kernelName}:${pd}:${x!.dtype}`,
          source,
          x!.shape,
          meta,
          [len, valueOf(x!), valueOf(index!), valueOf(src!)],
          x!,
        ),
      ];
    },
  };
}

/** Cat [...tensors] {dim}: pairwise, each step copying the left part and the right part. */
const cat: KernelConfig = {
  kernelName: K.Cat,
  device: 'gpu',
  kernelFunc: (inputs, attrs) => {
    const dim = attrs.dim;
    let acc = inputs[0]!;
    for (let i = 1; i < inputs.length; i++) acc = concat2(acc, inputs[i]!, dim);
    return [inputs.length === 1 ? gpuMap(K.Copy, 'x', [acc], acc.dtype) : acc];
  },
};

function concat2(a: Tensor, b: Tensor, dim: number): Tensor {
  const pd = padded(dim, a.ndim);
  const split = a.shape[dim]!;
  const shape = a.shape.map((s, d) => (d === dim ? s + b.shape[dim]! : s));
  const meta = [...shapeMeta(shape), ...operandMeta(a, a.shape), ...operandMeta(b, b.shape), split];
  const source = () => `function (meta, a, b) {
${coordsSource(0)}
const ai = ${offsetSource(at(0))};
const bi = ${offsetSource(at(1), replaced(pd, `(c${pd} - meta[${at(2)}])`))};
if (c${pd} < meta[${at(2)}]) return a[ai];
return b[bi];
}`;
  return run(`cat:${pd}`, source, shape, meta, [valueOf(a), valueOf(b)], a);
}

export const structureKernels: KernelConfig[] = [
  gather,
  indexSelect,
  oneHot,
  sliceScatter,
  addInto(K.ScatterAdd, true),
  addInto(K.IndexAdd, false),
  cat,
];
