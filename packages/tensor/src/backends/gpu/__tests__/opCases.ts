import { expect } from 'vitest';
import * as ops from '../../../index.js';
import { randn, tensor, type Tensor } from '../../../index.js';

/** float32 values of a tensor from either device. */
const values = (t: Tensor): number[] => Array.from(t.toTypedArray());

export function expectClose(got: Tensor, want: Tensor, rtol = 2e-5, atol = 2e-5): void {
  expect(got.shape).toEqual(want.shape);
  expect(got.dtype).toBe(want.dtype);
  const g = values(got);
  const w = values(want);
  for (let i = 0; i < w.length; i++) {
    if (Number.isNaN(w[i]!)) expect(g[i]).toBeNaN();
    else if (!(Math.abs(g[i]! - w[i]!) <= atol + rtol * Math.abs(w[i]!))) expect.fail(`element ${i}: ${g[i]} vs ${w[i]}`);
  }
}

// Each case builds its inputs on a device from the same cpu values and returns what to compare.
type Case = [string, (on: (t: Tensor) => Tensor) => Tensor | Tensor[]];
const A = randn([3, 4]);
const B = randn([4]);
const P = randn([3, 4]).abs().add(0.1);
const I = tensor(new Int32Array([2, 0, 1, 2, 1, 0]), { dtype: 'int32' }).reshape([3, 2]);
export const CASES: Case[] = [
  ...(['add', 'sub', 'mul', 'div', 'maximum', 'minimum', 'eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const).map(
    (name): Case => [`${name} with a row broadcast`, (on) => (ops[name] as (a: Tensor, b: Tensor) => Tensor)(on(A), on(B))],
  ),
  ['pow of positives', (on) => ops.pow(on(P), on(B))],
  ...(['neg', 'exp', 'sqrt', 'rsqrt', 'abs', 'sign', 'sin', 'cos', 'tanh', 'sigmoid', 'relu', 'gelu', 'silu', 'softplus', 'logicalNot'] as const).map(
    (name): Case => [`${name} of a transposed view`, (on) => (ops[name] as (a: Tensor) => Tensor)(on(A).t())],
  ),
  ['log, log1p of positives', (on) => [ops.log(on(P)), ops.log1p(on(P))]],
  ['clamp', (on) => ops.clamp(on(A), -0.5, 0.5)],
  ['where', (on) => ops.where(on(A).gt(0), on(A), on(B))],
  ['cast to int32 and bool', (on) => [on(A).mul(3).to('int32'), on(A).to('bool')]],
  ['int32 arithmetic (exact below 2^24)', (on) => on(I).mul(7).add(on(I)).div(on(I).add(1))],
  ['sum, prod over dims', (on) => [ops.sum(on(A)), ops.sum(on(A), 1), ops.sum(on(A).t(), 0, true), ops.prod(on(P), 0)]],
  ['max, min, argmax, argmin', (on) => [ops.max(on(A), 1).values, ops.max(on(A), 1).indices, ops.min(on(A)), ops.argmax(on(A), 0), ops.argmin(on(A))]],
  ['softmax, logSoftmax along each dim', (on) => [ops.softmax(on(A), 1), ops.softmax(on(A), 0), ops.logSoftmax(on(A), 1)]],
  ['matmul, bmm, transposed and broadcast operands', (on) => [ops.matmul(on(A), on(A).t()), ops.matmul(on(A).t(), on(randnFixed)), ops.matmul(on(A).reshape([3, 2, 2]), on(A).reshape([3, 2, 2]))]],
  ['gather, indexSelect, oneHot', (on) => [ops.gather(on(A), 1, on(I)), ops.indexSelect(on(A), 0, on(tensor(new Int32Array([2, 0])))), ops.oneHot(on(I), 3)]],
  ['scatterAdd, indexAdd, maskedFill', (on) => [ops.scatterAdd(on(A), 1, on(I), on(A)), ops.indexAdd(on(A), 0, on(tensor(new Int32Array([2, 0, 2]))), on(A)), ops.maskedFill(on(A), on(A).gt(0), -1)]],
  ['cat, stack, split, sliceScatter', (on) => [ops.cat([on(A), on(A).mul(2)], 1), ops.stack([on(B), on(B)], 0), ...ops.split(on(A), 2, 1), ops.sliceScatter(on(B).slice(0, 0, 2), [4], 0, 1, 4, 2)]],
  ['in-place writes into views', (on) => {
    const x = on(A).clone();
    x.slice(1, 1, 3).add_(10);
    x.select(0, 2).fill_(7);
    x.t().slice(0, 0, 1).copy_(on(tensor([[1, 2, 3]])));
    return x;
  }],
];
const randnFixed = randn([3, 5]);

