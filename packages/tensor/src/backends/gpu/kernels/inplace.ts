import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import type { Tensor } from '../../../tensor.js';
import { castExpr } from '../gpuMap.js';
import { kernel, launch, release } from '../gpuRuntime.js';
import { type GpuBox, MAX_RANK, operandMeta, valueOf } from '../gpuTensor.js';

/**
 * Note [gpu in-place writes]
 * gpu.js kernels write whole new outputs, so an in-place kernel computes its storage's new
 * contents: each storage element checks whether it belongs to the destination view (its
 * dims sorted by stride, size-1 dims dropped: the offset's digits in that mixed radix
 * must all be in range) and takes the new value there, its old value elsewhere. The
 * storage's box then holds the new value (Note [gpu storage]), so every view sees it.
 */
function source(withSrc: boolean, dtype: string): string {
  const digits: string[] = [];
  for (let d = 0; d < MAX_RANK; d++) {
    digits.push(
      `{ const st = meta[${1 + MAX_RANK + d}]; const cd = st > 0 ? Math.floor((r + 0.5) / st) : 0;`,
      `  if (cd < 0 || cd >= meta[${1 + d}]) inside = 0; r = r - cd * st; si += cd * meta[${2 + 2 * MAX_RANK + d}]; }`,
    );
  }
  return `function (meta, p0, old${withSrc ? ', src' : ''}) {
const s = this.thread.x;
let r = s - meta[0];
let inside = r >= 0 ? 1 : 0;
let si = meta[${1 + 2 * MAX_RANK}];
${digits.join('\n')}
if (r !== 0) inside = 0;
if (inside === 0) return old[s];
return ${withSrc ? castExpr('src[si]', dtype as never) : 'p0'};
}`;
}

/** [dst offset, sizes, strides (dst dims by stride, size-1 dims dropped), src offset, src strides in that order] */
function meta(dst: Tensor, src: Tensor | null): number[] {
  const dims = [...dst.shape.keys()].filter((d) => dst.shape[d]! > 1).sort((a, b) => dst.strides[b]! - dst.strides[a]!);
  const srcStrides = src ? operandMeta(src, dst.shape).slice(1 + MAX_RANK - dst.ndim) : [];
  const pad = (xs: number[], fill: number) => [...xs, ...new Array<number>(MAX_RANK - xs.length).fill(fill)];
  return [
    dst.offset,
    ...pad(
      dims.map((d) => dst.shape[d]!),
      1,
    ),
    ...pad(
      dims.map((d) => dst.strides[d]!),
      0,
    ),
    src ? operandMeta(src, dst.shape)[0]! : 0,
    ...pad(
      dims.map((d) => srcStrides[d] ?? 0),
      0,
    ),
  ];
}

function write(dst: Tensor, src: Tensor | null, value: number): Tensor {
  const box = dst.storage.handle as GpuBox;
  const old = valueOf(dst);
  const k = kernel(`inplace:${src !== null}:${dst.dtype}`, () => source(src !== null, dst.dtype));
  box.value = launch(k, dst.storage.length, [meta(dst, src), value, old, ...(src ? [valueOf(src)] : [])]);
  release(old);
  return dst;
}

/** CopyInto and Fill on the gpu: each writes its destination view's storage anew (Note [gpu in-place writes]). */
export const inplaceKernels: KernelConfig[] = [
  { kernelName: K.CopyInto, device: 'gpu', kernelFunc: ([dst, src]) => [write(dst!, src!, 0)] },
  { kernelName: K.Fill, device: 'gpu', kernelFunc: ([dst], attrs) => [write(dst!, null, attrs.value)] },
];
