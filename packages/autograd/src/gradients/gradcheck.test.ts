import { describe, expect, it } from 'vitest';
import {
  KernelNames,
  cat,
  getGradient,
  gradcheck,
  isNonDifferentiable,
  manualSeed,
  randn,
  sliceScatter,
  tensor,
  type Tensor,
} from '../index.js';

manualSeed(7);
const r = (shape: number[], shift = 0) => {
  const t = randn(shape, { dtype: 'float64' }).add(shift);
  t.requiresGrad = true;
  return t;
};
const pos = (shape: number[]) => {
  const t = randn(shape, { dtype: 'float64' }).abs().add(0.5);
  t.requiresGrad = true;
  return t;
};
const idx = (v: number[], shape = [v.length]) => tensor(new Int32Array(v)).reshape(shape);

type Case = [name: string, fn: (...t: Tensor[]) => Tensor | Tensor[], inputs: () => Tensor[]];

/** Every differentiable kernel, exercised through the public ops (broadcasting and views included). */
const cases: Case[] = [
  ['Add (broadcast, alpha)', (a, b) => a.add(b, { alpha: 2 }), () => [r([2, 3]), r([3])]],
  ['Sub (broadcast)', (a, b) => a.sub(b), () => [r([2, 1]), r([1, 3])]],
  ['Mul', (a, b) => a.mul(b), () => [r([2, 3]), r([2, 3])]],
  ['Div', (a, b) => a.div(b), () => [r([3]), pos([2, 3])]],
  ['Pow', (a, b) => a.pow(b), () => [pos([3]), r([3])]],
  ['Maximum', (a, b) => a.maximum(b), () => [r([4]), r([4])]],
  ['Minimum', (a, b) => a.minimum(b), () => [r([4]), r([4])]],
  ['Neg', (a) => a.neg(), () => [r([3])]],
  ['Exp', (a) => a.exp(), () => [r([3])]],
  ['Log', (a) => a.log(), () => [pos([3])]],
  ['Log1p', (a) => a.log1p(), () => [pos([3])]],
  ['Sqrt', (a) => a.sqrt(), () => [pos([3])]],
  ['Rsqrt', (a) => a.rsqrt(), () => [pos([3])]],
  ['Abs', (a) => a.abs(), () => [pos([3])]],
  ['Sin', (a) => a.sin(), () => [r([3])]],
  ['Cos', (a) => a.cos(), () => [r([3])]],
  ['Tanh', (a) => a.tanh(), () => [r([3])]],
  ['Sigmoid', (a) => a.sigmoid(), () => [r([3])]],
  ['Relu', (a) => a.relu(), () => [pos([3])]],
  ['Gelu', (a) => a.gelu(), () => [r([5])]],
  ['Silu', (a) => a.silu(), () => [r([5])]],
  ['Softplus', (a) => a.softplus(), () => [r([5])]],
  ['Clamp', (a) => a.clamp(-0.5, 0.5), () => [tensor([-1, -0.2, 0.3, 0.9], { dtype: 'float64', requiresGrad: true })]],
  ['Where', (a, b) => a.where(a.gt(0), b), () => [r([4]), r([4])]],
  ['Copy (contiguous of a view)', (a) => a.t().contiguous(), () => [r([2, 3])]],
  ['Sum over dims', (a) => a.sum([0, 2]), () => [r([2, 3, 2])]],
  ['Sum keepdim', (a) => a.sum(1, true), () => [r([2, 3])]],
  ['Mean / Var / Std', (a) => [a.mean(0), a.var(1), a.std()], () => [r([3, 4])]],
  ['Prod', (a) => a.prod(1), () => [pos([2, 3])]],
  [
    'Prod with zeros (one and two per slice, and over everything)',
    (a) => [a.prod(1), a.prod(0, true), a.prod()],
    () => [
      tensor(
        [
          [2, 0, 3],
          [0, 0, 1.5],
          [0.5, 1, 2],
        ],
        { dtype: 'float64', requiresGrad: true },
      ),
    ],
  ],
  ['Max all', (a) => a.max(), () => [r([2, 3])]],
  ['Max dim', (a) => a.max(1).values, () => [r([2, 3])]],
  ['Min dim keepdim', (a) => a.min(0, true).values, () => [r([3, 2])]],
  ['Softmax', (a) => a.softmax(1), () => [r([2, 4])]],
  ['LogSoftmax', (a) => a.logSoftmax(0), () => [r([3, 2])]],
  ['Logsumexp', (a) => a.logsumexp(1), () => [r([2, 3])]],
  ['BatchMatMul (mm)', (a, b) => a.matmul(b), () => [r([2, 3]), r([3, 4])]],
  ['BatchMatMul (mm, transposed operands)', (a, b) => a.t().matmul(b.t()), () => [r([3, 2]), r([4, 3])]],
  ['BatchMatMul (batched, broadcast)', (a, b) => a.matmul(b), () => [r([2, 2, 3]), r([3, 2])]],
  ['matmul 1-D', (a, b) => a.matmul(b), () => [r([3]), r([3, 2])]],
  ['Reshape / view', (a) => a.reshape([3, 2]).mul(a.view([3, 2])), () => [r([2, 3])]],
  ['Permute / transpose', (a) => a.permute([2, 0, 1]).mul(2), () => [r([2, 3, 2])]],
  ['Expand', (a, w) => a.expand([3, 2, 2]).mul(w), () => [r([2, 1]), r([3, 2, 2])]],
  ['Slice / narrow', (a) => [a.slice(1, 0, null, 2), a.narrow(0, 1, 1)], () => [r([2, 5])]],
  ['Select', (a) => [a.select(1, -1), a.select(0, 1).select(1, 0)], () => [r([2, 5, 3])]],
  ['SliceScatter', (a) => sliceScatter(a, [5], 0, 1, 5, 2), () => [r([2])]],
  ['Gather', (a) => a.gather(1, idx([0, 2, 1, 1], [2, 2])), () => [r([2, 3])]],
  ['ScatterAdd', (a, s) => a.scatterAdd(1, idx([0, 2, 1, 1], [2, 2]), s), () => [r([2, 3]), r([2, 2])]],
  ['IndexSelect', (a) => a.indexSelect(0, idx([2, 0, 2])), () => [r([3, 2])]],
  ['IndexAdd', (a, s) => a.indexAdd(0, idx([2, 0]), s), () => [r([3, 2]), r([2, 2])]],
  ['MaskedFill', (a) => a.maskedFill(tensor([true, false, true]), 0), () => [r([2, 3])]],
  ['Cat / stack / split', (a, b) => cat([a, b], 1).split(2, 1)[1]!, () => [r([2, 2]), r([2, 3])]],
  ['Split (split, chunk)', (a) => [...a.split([1, 3], 1), ...a.chunk(2, 0)], () => [r([3, 4])]],
  ['Unbind', (a) => a.unbind(1), () => [r([2, 3])]],
  ['CopyInto (in-place on a non-leaf)', (a, b) => a.mul(1).copy_(b), () => [r([2, 2]), r([2])]],
  ['Fill (in-place)', (a) => a.mul(1).fill_(3).add(a), () => [r([3])]],
];

describe('gradcheck passes for every gradient rule', () => {
  it.each(cases)('%s', (_name, fn, inputs) => {
    expect(gradcheck(fn, inputs(), { raiseException: true })).toBe(true);
  });

  it('Cast through float32 (finite differences need a float32-sized step)', () => {
    expect(
      gradcheck((a) => a.to('float32').to('float64'), [r([3])], { eps: 1e-2, atol: 1e-4, raiseException: true }),
    ).toBe(true);
  });
});

describe('gradient coverage', () => {
  it('every kernel has a gradient or is declared non-differentiable', () => {
    const missing = KernelNames.ALL_KERNELS.filter((k) => !getGradient(k) && !isNonDifferentiable(k));
    expect(missing).toEqual([]);
  });
});
