import { clone, contiguous, cpu, detach, gpu, to } from '../ops/copy.js';
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
import type { Tensor } from '../tensor.js';
import { installMethods, type MethodsOf } from './install.js';

/**
 * The method forms of the structural functions; their types are derived from the functions
 * (MethodsOf, Note in math.ts). The shape-taking ones that PyTorch also takes as varargs
 * (reshape, view, permute, expand) are declared by hand below, with both forms.
 */
const methods = {
  viewAs,
  transpose,
  t,
  squeeze,
  unsqueeze,
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
};

type StructureMethods = MethodsOf<typeof methods, Tensor>;

declare module '../tensor.js' {
  interface Tensor extends StructureMethods {
    /** the shape as one list or as varargs: `x.reshape([2, 3])`, `x.reshape(2, 3)` (PyTorch takes both) */
    reshape(shape: readonly number[]): Tensor;
    reshape(...shape: number[]): Tensor;
    view(shape: readonly number[]): Tensor;
    view(...shape: number[]): Tensor;
    permute(dims: readonly number[]): Tensor;
    permute(...dims: number[]): Tensor;
    expand(shape: readonly number[]): Tensor;
    expand(...shape: number[]): Tensor;
  }
}

installMethods({ ...methods, reshape, view, permute, expand });
