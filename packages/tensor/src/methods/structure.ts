import { clone, contiguous, cpu, detach, gpu, to, type ToTarget } from '../ops/copy.js';
import { expand, flatten, narrow, permute, reshape, select, slice, squeeze, t, transpose, unsqueeze, view } from '../ops/view.js';
import { item, tolist, toTypedArray } from '../read.js';
import type { TypedArray } from '../dtype.js';
import type { NestedArray, Tensor } from '../tensor.js';
import { installMethods } from './install.js';

declare module '../tensor.js' {
  interface Tensor {
    reshape(shape: readonly number[]): Tensor;
    view(shape: readonly number[]): Tensor;
    transpose(dim0: number, dim1: number): Tensor;
    permute(dims: readonly number[]): Tensor;
    t(): Tensor;
    squeeze(dim?: number | readonly number[]): Tensor;
    unsqueeze(dim: number): Tensor;
    expand(shape: readonly number[]): Tensor;
    flatten(startDim?: number, endDim?: number): Tensor;
    narrow(dim: number, start: number, length: number): Tensor;
    slice(dim: number, start?: number | null, end?: number | null, step?: number): Tensor;
    select(dim: number, index: number): Tensor;
    contiguous(): Tensor;
    clone(): Tensor;
    detach(): Tensor;
    to(target: ToTarget): Tensor;
    cpu(): Tensor;
    gpu(index?: number): Tensor;
    item(): number;
    tolist(): NestedArray;
    toTypedArray(): TypedArray;
  }
}

installMethods({
  reshape, view, transpose, permute, t, squeeze, unsqueeze, expand, flatten, narrow, slice, select,
  contiguous, clone, detach, to, cpu, gpu, item, tolist, toTypedArray,
} as unknown as Record<string, (self: Tensor, ...args: never[]) => unknown>);
