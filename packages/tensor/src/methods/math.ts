import { add, div, eq, ge, gt, le, lt, maximum, minimum, mul, ne, pow, sub } from '../ops/binary.js';
import type { TensorOrScalar } from '../ops/operands.js';
import {
  abs,
  clamp,
  cos,
  exp,
  gelu,
  log,
  log1p,
  logicalNot,
  neg,
  relu,
  rsqrt,
  sigmoid,
  sign,
  silu,
  sin,
  softplus,
  sqrt,
  tanh,
} from '../ops/unary.js';
import { where } from '../ops/where.js';
import { argmax, argmin, logsumexp, max, mean, min, prod, std, sum, var_, type ValuesIndices } from '../ops/reduce.js';
import { logSoftmax, softmax } from '../ops/softmax.js';
import { bmm, dot, matmul, mm, outer } from '../ops/matmul.js';
import type { Tensor } from '../tensor.js';
import { installMethods, type MethodsOf } from './install.js';

/**
 * The method forms of the free functions, `t.add(b)` for `add(t, b)`: their types are derived
 * from the functions (`MethodsOf`), so a method cannot drift from its function. Overloaded
 * functions (max, min) are declared by hand below, as a mapped type keeps one overload only.
 */
const methods = {
  add,
  sub,
  mul,
  div,
  pow,
  maximum,
  minimum,
  eq,
  ne,
  lt,
  le,
  gt,
  ge,
  neg,
  exp,
  log,
  log1p,
  sqrt,
  rsqrt,
  abs,
  sign,
  sin,
  cos,
  tanh,
  sigmoid,
  relu,
  gelu,
  silu,
  softplus,
  logicalNot,
  clamp,
  /** PyTorch's `x.where(cond, y)`: this tensor's elements where `cond` is true, else y's. */
  where: (self: Tensor, cond: Tensor, other: TensorOrScalar) => where(cond, self, other),
  sum,
  mean,
  prod,
  var: var_,
  std,
  argmax,
  argmin,
  logsumexp,
  softmax,
  logSoftmax,
  matmul,
  mm,
  bmm,
  dot,
  outer,
};

type MathMethods = MethodsOf<typeof methods, Tensor>;

declare module '../tensor.js' {
  interface Tensor extends MathMethods {
    max(): Tensor;
    max(dim: number, keepdim?: boolean): ValuesIndices;
    min(): Tensor;
    min(dim: number, keepdim?: boolean): ValuesIndices;
  }
}

installMethods({ ...methods, max, min });
