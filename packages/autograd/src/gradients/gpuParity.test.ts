import { describe, expect, it } from 'vitest';
import { grad } from '../backward.js';
import * as ops from '../index.js';
import { manualSeed, randn, tensor, type Tensor } from '../index.js';

/**
 * Gradient parity between the devices: every differentiable op's gradient on gpu:0 (gpu.js,
 * float32) equals the cpu one to float32 tolerance. Inputs are built from the same cpu values;
 * a fixed random weighting of the output makes every output element count differently.
 */
type Case = [string, Tensor[], (xs: Tensor[]) => Tensor];
manualSeed(13); // fixed inputs: a tolerance miss (e.g. pow's gradient near a small base) reproduces
const X = randn([3, 4]);
const Y = randn([4]);
const P = randn([3, 4]).abs().add(0.2);
const M = randn([4, 5]);
const IDX = tensor(new Int32Array([2, 0, 1, 3, 1, 0]), { dtype: 'int32' }).reshape([3, 2]);
const CASES: Case[] = [
  ...(['add', 'sub', 'mul', 'maximum', 'minimum'] as const).map((n): Case => [
    n,
    [X, Y],
    ([a, b]) => (ops[n] as (a: Tensor, b: Tensor) => Tensor)(a!, b!),
  ]),
  ['div', [X, P], ([a, b]) => ops.div(a!, b!)],
  ['pow', [P, Y], ([a, b]) => ops.pow(a!, b!)],
  // negative bases: GLSL's pow is undefined there (Note [gpu special values])
  ['pow of negative bases, integer exponents', [X], ([a]) => ops.pow(a!, 2).add(ops.pow(a!, 3))],
  ...(['neg', 'exp', 'abs', 'sin', 'cos', 'tanh', 'sigmoid', 'relu', 'gelu', 'silu', 'softplus'] as const).map(
    (n): Case => [n, [X], ([a]) => (ops[n] as (a: Tensor) => Tensor)(a!.t())],
  ),
  ...(['log', 'log1p', 'sqrt', 'rsqrt'] as const).map((n): Case => [
    n,
    [P],
    ([a]) => (ops[n] as (a: Tensor) => Tensor)(a!),
  ]),
  ['clamp', [X], ([a]) => ops.clamp(a!, -0.3, 0.4)],
  ['where', [X, Y], ([a, b]) => ops.where(X.gt(0).to(a!.device), a!, b!)],
  ['sum, mean over dims', [X], ([a]) => ops.sum(a!, 1).add(ops.mean(a!, 0).sum())],
  ['prod', [P], ([a]) => ops.prod(a!, 1)],
  ['max, min with a dim', [X], ([a]) => ops.max(a!, 1).values.add(ops.min(a!, 1).values)],
  ['softmax, logSoftmax', [X], ([a]) => ops.softmax(a!, 1).add(ops.logSoftmax(a!, 0))],
  ['matmul with a transpose', [X, M], ([a, b]) => ops.matmul(a!, b!).matmul(b!.t())],
  [
    'gather, indexSelect',
    [X],
    ([a]) =>
      ops
        .gather(a!, 1, IDX.to(a!.device))
        .sum(1)
        .add(ops.indexSelect(a!, 1, tensor(new Int32Array([3, 0, 3])).to(a!.device)).sum(1)),
  ],
  [
    'cat, stack, views',
    [X, Y],
    ([a, b]) =>
      ops.cat([a!.reshape([12]), ops.stack([b!, b!.mul(2)], 0).reshape([8]), a!.t().slice(0, 1, 3).reshape([6])], 0),
  ],
  ['select (SelectBackward0)', [X], ([a]) => ops.select(a!, 1, -1).add(ops.select(a!, 0, 2).sum())],
  [
    'split, chunk, unbind: one node each, unused pieces as zeros (Note [Multi-output views])',
    [X],
    ([a]) => {
      const [p, , r] = ops.split(a!, [1, 2, 1], 1);
      const [u, , w] = ops.unbind(a!, 0);
      return p!
        .add(r!.mul(3))
        .reshape([3])
        .add(u!.sub(w!).sum())
        .add(ops.chunk(a!, 2, 1)[1]!.sum(1));
    },
  ],
  [
    'scatterAdd, indexAdd, maskedFill',
    [X, X.mul(2)],
    ([a, b]) =>
      ops
        .scatterAdd(a!, 1, IDX.to(a!.device), b!.slice(1, 0, 2))
        .add(ops.indexAdd(a!, 0, tensor(new Int32Array([2, 0, 2])).to(a!.device), b!))
        .add(ops.maskedFill(a!, X.gt(0.5).to(a!.device), 3)),
  ],
  [
    'in-place write into a view of a non-leaf (CopySlices), cast',
    [X, Y],
    ([a, b]) => {
      const c = a!.mul(1);
      c.select(0, 1).mul_(b!);
      return c.to('float32').add(a!.sign());
    },
  ],
];

describe('gradients on gpu:0 equal the cpu ones (float32)', () => {
  it.each(CASES)('%s', (_, inputs, f) => {
    const gradsOn = (dev: 'cpu' | 'gpu') => {
      const xs = inputs.map((t) => {
        const x = t.to(dev).detach();
        x.requiresGrad = true;
        return x;
      });
      const out = f(xs);
      const weight = ops.arange(out.numel, { dtype: 'float32' }).reshape(out.shape).mul(0.1).add(1).to(dev);
      return grad(out.mul(weight).sum(), xs).map((g) => {
        expect(g!.device.toString()).toBe(dev === 'cpu' ? 'cpu' : 'gpu:0');
        return Array.from(g!.toTypedArray());
      });
    };
    const cpu = gradsOn('cpu');
    const gpu = gradsOn('gpu');
    gpu.forEach((g, i) =>
      g.forEach((v, j) => expect(Math.abs(v - cpu[i]![j]!)).toBeLessThanOrEqual(1e-4 + 1e-4 * Math.abs(cpu[i]![j]!))),
    );
  });
});
