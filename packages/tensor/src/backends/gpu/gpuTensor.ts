import type { Device } from '../../device.js';
import type { DType } from '../../dtype.js';
import { TensorError, fmtShape } from '../../errors.js';
import { broadcastStrides, numelOf, shapesEqual } from '../../shape.js';
import { Storage } from '../../storage.js';
import { Tensor } from '../../tensor.js';
import type { GpuValue } from './gpuRuntime.js';

/** The largest rank the gpu kernels index (their index math is unrolled over these dims). */
export const MAX_RANK = 5;

/**
 * Note [gpu storage]
 * A gpu storage's handle is a box around the gpu.js value (a Texture, or a Float32Array in
 * the webasm and cpu modes). In-place kernels compute the storage's new contents and swap
 * the box's value (views share the storage, so they all see it); dispose() and the GC
 * (a FinalizationRegistry on the storage, holding the box) free whatever value is current.
 */
export interface GpuBox {
  value: GpuValue | null;
}

export function valueOf(t: Tensor): GpuValue {
  // a released storage drops its handle (Storage.release): disposed, whichever of the two it shows
  const box = t.storage.handle as GpuBox | null;
  if (box === null || box.value === null)
    throw new TensorError('DISPOSED', 'Tensor storage was disposed; it cannot be used any more');
  return box.value;
}

export function gpuTensor(value: GpuValue, shape: readonly number[], dtype: DType, device: Device): Tensor {
  return new Tensor(new Storage(device, dtype, numelOf(shape), null, { value } satisfies GpuBox), shape);
}

export function assertGpuRank(shape: readonly number[], what: string): void {
  if (shape.length > MAX_RANK)
    throw new TensorError('UNSUPPORTED', `${what} on the gpu supports up to ${MAX_RANK} dims, got ${fmtShape(shape)}`);
}

/** [shape padded to MAX_RANK with leading 1s] */
export function shapeMeta(shape: readonly number[]): number[] {
  assertGpuRank(shape, 'indexing');
  return [...new Array<number>(MAX_RANK - shape.length).fill(1), ...shape];
}

/** [offset, strides padded to MAX_RANK] of `t` seen with shape `outShape` (broadcast). */
export function operandMeta(t: Tensor, outShape: readonly number[]): number[] {
  const strides = shapesEqual(t.shape, outShape) ? t.strides : broadcastStrides(t.shape, t.strides, outShape);
  return [t.offset, ...new Array<number>(MAX_RANK - strides.length).fill(0), ...strides];
}

/**
 * Kernel source computing coordinates c0..c{rank-1} of output element `this.thread.x`
 * in the (padded) shape at meta[at..]. Integer division is done as floor((r + 0.5) / s), exact
 * in float32 arithmetic (GL) for indices below 2^24.
 */
export function coordsSource(at: number, index = 'this.thread.x', rank = MAX_RANK): string {
  const lines = [`let rem = ${index};`];
  for (let d = rank - 1; d > 0; d--) {
    lines.push(
      `const q${d} = Math.floor((rem + 0.5) / meta[${at + d}]);`,
      `const c${d} = rem - q${d} * meta[${at + d}];`,
      `rem = q${d};`,
    );
  }
  lines.push('const c0 = rem;');
  return lines.join('\n');
}

/** Kernel source of the storage index of an operand whose [offset, strides] sit at meta[at..]. */
export function offsetSource(at: number, coord: (d: number) => string = (d) => `c${d}`, rank = MAX_RANK): string {
  const terms = [`meta[${at}]`];
  for (let d = 0; d < rank; d++) terms.push(`${coord(d)} * meta[${at + 1 + d}]`);
  return terms.join(' + ');
}
