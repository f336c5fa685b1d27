import { add, div, eq, ge, gt, le, lt, maximum, minimum, mul, ne, pow, sub, type AlphaOptions } from '../ops/binary.js';
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
import {
  argmax,
  argmin,
  logsumexp,
  max,
  mean,
  min,
  prod,
  std,
  sum,
  var_,
  type Dims,
  type ValuesIndices,
  type VarOptions,
} from '../ops/reduce.js';
import { logSoftmax, softmax } from '../ops/softmax.js';
import { bmm, dot, matmul, mm, outer } from '../ops/matmul.js';
import type { Tensor } from '../tensor.js';
import { installMethods } from './install.js';

declare module '../tensor.js' {
  interface Tensor {
    add(other: TensorOrScalar, opts?: AlphaOptions): Tensor;
    sub(other: TensorOrScalar, opts?: AlphaOptions): Tensor;
    mul(other: TensorOrScalar): Tensor;
    div(other: TensorOrScalar): Tensor;
    pow(exponent: TensorOrScalar): Tensor;
    maximum(other: TensorOrScalar): Tensor;
    minimum(other: TensorOrScalar): Tensor;
    eq(other: TensorOrScalar): Tensor;
    ne(other: TensorOrScalar): Tensor;
    lt(other: TensorOrScalar): Tensor;
    le(other: TensorOrScalar): Tensor;
    gt(other: TensorOrScalar): Tensor;
    ge(other: TensorOrScalar): Tensor;
    neg(): Tensor;
    exp(): Tensor;
    log(): Tensor;
    log1p(): Tensor;
    sqrt(): Tensor;
    rsqrt(): Tensor;
    abs(): Tensor;
    sign(): Tensor;
    sin(): Tensor;
    cos(): Tensor;
    tanh(): Tensor;
    sigmoid(): Tensor;
    relu(): Tensor;
    gelu(): Tensor;
    silu(): Tensor;
    softplus(): Tensor;
    logicalNot(): Tensor;
    clamp(min?: number | null, max?: number | null): Tensor;
    /** PyTorch's `x.where(cond, y)`: this tensor's elements where `cond` is true, else y's. */
    where(cond: Tensor, other: TensorOrScalar): Tensor;
    sum(dim?: Dims, keepdim?: boolean): Tensor;
    mean(dim?: Dims, keepdim?: boolean): Tensor;
    prod(dim?: Dims, keepdim?: boolean): Tensor;
    var(dim?: Dims, keepdim?: boolean, opts?: VarOptions): Tensor;
    std(dim?: Dims, keepdim?: boolean, opts?: VarOptions): Tensor;
    max(): Tensor;
    max(dim: number, keepdim?: boolean): ValuesIndices;
    min(): Tensor;
    min(dim: number, keepdim?: boolean): ValuesIndices;
    argmax(dim?: number, keepdim?: boolean): Tensor;
    argmin(dim?: number, keepdim?: boolean): Tensor;
    logsumexp(dim: Dims, keepdim?: boolean): Tensor;
    softmax(dim: number): Tensor;
    logSoftmax(dim: number): Tensor;
    matmul(other: Tensor): Tensor;
    mm(other: Tensor): Tensor;
    bmm(other: Tensor): Tensor;
    dot(other: Tensor): Tensor;
    outer(other: Tensor): Tensor;
  }
}

installMethods({
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
  where: (self: Tensor, cond: Tensor, other: TensorOrScalar) => where(cond, self, other),
  sum,
  mean,
  prod,
  var: var_,
  std,
  max,
  min,
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
} as unknown as Record<string, (self: Tensor, ...args: never[]) => unknown>);
