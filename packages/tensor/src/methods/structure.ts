import { clone, contiguous, cpu, detach, gpu, to, type ToTarget } from '../ops/copy.js';
import {
  expand,
  flatten,
  narrow,
  permute,
  reshape,
  select,
  slice,
  squeeze,
  t,
  transpose,
  unbind,
  unsqueeze,
  view,
  viewAs,
} from '../ops/view.js';
import { item, tolist, toTypedArray } from '../read.js';
import { gather, indexAdd, indexSelect, maskedFill, scatterAdd } from '../ops/indexing.js';
import { chunk, split } from '../ops/join.js';
import { add_, clamp_, copy_, div_, fill_, mul_, sub_, zero_ } from '../ops/inplace.js';
import { normal_, uniform_ } from '../ops/random.js';
import type { AlphaOptions } from '../ops/binary.js';
import type { TensorOrScalar } from '../ops/operands.js';
import type { TypedArray } from '../dtype.js';
import type { NestedArray, Tensor } from '../tensor.js';
import { installMethods } from './install.js';

declare module '../tensor.js' {
  interface Tensor {
    /** the shape as one list or as varargs: `x.reshape([2, 3])`, `x.reshape(2, 3)` (PyTorch takes both) */
    reshape(shape: readonly number[]): Tensor;
    reshape(...shape: number[]): Tensor;
    view(shape: readonly number[]): Tensor;
    view(...shape: number[]): Tensor;
    viewAs(other: Tensor): Tensor;
    transpose(dim0: number, dim1: number): Tensor;
    permute(dims: readonly number[]): Tensor;
    permute(...dims: number[]): Tensor;
    t(): Tensor;
    squeeze(dim?: number | readonly number[]): Tensor;
    unsqueeze(dim: number): Tensor;
    expand(shape: readonly number[]): Tensor;
    expand(...shape: number[]): Tensor;
    flatten(startDim?: number, endDim?: number): Tensor;
    narrow(dim: number, start: number, length: number): Tensor;
    slice(dim: number, start?: number | null, end?: number | null, step?: number): Tensor;
    select(dim: number, index: number): Tensor;
    unbind(dim?: number): Tensor[];
    contiguous(): Tensor;
    clone(): Tensor;
    detach(): Tensor;
    to(target: ToTarget): Tensor;
    cpu(): Tensor;
    gpu(index?: number): Tensor;
    item(): number;
    tolist(): NestedArray;
    toTypedArray(): TypedArray;
    gather(dim: number, index: Tensor): Tensor;
    scatterAdd(dim: number, index: Tensor, src: Tensor): Tensor;
    indexSelect(dim: number, index: Tensor): Tensor;
    indexAdd(dim: number, index: Tensor, src: Tensor): Tensor;
    maskedFill(mask: Tensor, value: number | boolean): Tensor;
    split(size: number | readonly number[], dim?: number): Tensor[];
    chunk(n: number, dim?: number): Tensor[];
    add_(other: TensorOrScalar, opts?: AlphaOptions): Tensor;
    sub_(other: TensorOrScalar, opts?: AlphaOptions): Tensor;
    mul_(other: TensorOrScalar): Tensor;
    div_(other: TensorOrScalar): Tensor;
    clamp_(min?: number | null, max?: number | null): Tensor;
    copy_(src: Tensor): Tensor;
    fill_(value: number | boolean): Tensor;
    zero_(): Tensor;
    uniform_(from?: number, to?: number): Tensor;
    normal_(mean?: number, std?: number): Tensor;
  }
}

installMethods({
  reshape,
  view,
  viewAs,
  transpose,
  permute,
  t,
  squeeze,
  unsqueeze,
  expand,
  flatten,
  narrow,
  slice,
  select,
  unbind,
  contiguous,
  clone,
  detach,
  to,
  cpu,
  gpu,
  item,
  tolist,
  toTypedArray,
  gather,
  scatterAdd,
  indexSelect,
  indexAdd,
  maskedFill,
  split,
  chunk,
  add_,
  sub_,
  mul_,
  div_,
  clamp_,
  copy_,
  fill_,
  zero_,
  uniform_,
  normal_,
} as unknown as Record<string, (self: Tensor, ...args: never[]) => unknown>);
