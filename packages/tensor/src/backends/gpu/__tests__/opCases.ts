import { expect } from 'vitest';
import { expectClose as expectValuesClose } from '../../../__tests__/close.js';
import * as ops from '../../../index.js';
import { manualSeed, randn, tensor, type Tensor } from '../../../index.js';

/** Same shape and dtype, and values within float32 tolerances (NaN and infinities exact), from either device. */
export function expectClose(got: Tensor, want: Tensor, rtol = 2e-5, atol = 2e-5): void {
  expect(got.shape).toEqual(want.shape);
  expect(got.dtype).toBe(want.dtype);
  expectValuesClose(got.toTypedArray(), want.toTypedArray(), rtol, atol);
}

// Each case builds its inputs on a device from the same cpu values and returns what to compare.
type Case = [string, (on: (t: Tensor) => Tensor) => Tensor | Tensor[]];
const UNARY = [
  'neg',
  'exp',
  'sqrt',
  'rsqrt',
  'abs',
  'sign',
  'sin',
  'cos',
  'tanh',
  'sigmoid',
  'relu',
  'gelu',
  'silu',
  'softplus',
  'logicalNot',
] as const;
const SPECIAL = [Number.NaN, Infinity, -Infinity, 0, -0, 1e-30, -1e-30, 3.5, -3.5, 50, -50, 1e30, -1e30, 88, -88, 1e-7];
const S = tensor(SPECIAL);
const SR = tensor([...SPECIAL].reverse());
// seeded: a tolerance miss on some draw must reproduce, never flake (the autograd parity spec had one)
manualSeed(17);
const A = randn([3, 4]);
const B = randn([4]);
const P = randn([3, 4]).abs().add(0.1);
const I = tensor(new Int32Array([2, 0, 1, 2, 1, 0]), { dtype: 'int32' }).reshape([3, 2]);
export const CASES: Case[] = [
  ...(['add', 'sub', 'mul', 'div', 'maximum', 'minimum', 'eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const).map(
    (name): Case => [
      `${name} with a row broadcast`,
      (on) => (ops[name] as (a: Tensor, b: Tensor) => Tensor)(on(A), on(B)),
    ],
  ),
  ['pow of positives', (on) => ops.pow(on(P), on(B))],
  ...UNARY.map((name): Case => [
    `${name} of a transposed view`,
    (on) => (ops[name] as (a: Tensor) => Tensor)(on(A).t()),
  ]),
  // See Note [gpu special values] (sin/cos of |x| = 1e30 are left to the hardware)
  [
    'NaN, +-inf, +-0, tiny and huge values through every elementwise op',
    (on) => [
      ...UNARY.filter((name) => name !== 'sin' && name !== 'cos').map((name) =>
        (ops[name] as (a: Tensor) => Tensor)(on(S)),
      ),
      ...(['add', 'sub', 'mul', 'div', 'pow', 'maximum', 'minimum', 'eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const).map(
        (name) => (ops[name] as (a: Tensor, b: Tensor) => Tensor)(on(S), on(SR)),
      ),
      ops.pow(on(tensor([-3, -2, 2, -0.5, 0])), 2),
      ops.pow(on(tensor([-3, -2, 2, 0, -0.5])), 3),
      ops.pow(on(tensor([-3, 4, 0])), on(tensor([0.5, -1, -1]))),
      ops.clamp(on(S), 0, 1),
      ops.log(on(S)),
      ops.log1p(on(S)),
    ],
  ],
  ['log, log1p of positives', (on) => [ops.log(on(P)), ops.log1p(on(P))]],
  ['clamp', (on) => ops.clamp(on(A), -0.5, 0.5)],
  ['where', (on) => ops.where(on(A).gt(0), on(A), on(B))],
  ['cast to int32 and bool', (on) => [on(A).mul(3).to('int32'), on(A).to('bool')]],
  ['int32 arithmetic (exact below 2^24)', (on) => on(I).mul(7).add(on(I)).div(on(I).add(1))],
  ['sum, prod over dims', (on) => [ops.sum(on(A)), ops.sum(on(A), 1), ops.sum(on(A).t(), 0, true), ops.prod(on(P), 0)]],
  [
    'max, min, argmax, argmin',
    (on) => [
      ops.max(on(A), 1).values,
      ops.max(on(A), 1).indices,
      ops.min(on(A)),
      ops.argmax(on(A), 0),
      ops.argmin(on(A)),
    ],
  ],
  [
    'softmax, logSoftmax along each dim',
    (on) => [ops.softmax(on(A), 1), ops.softmax(on(A), 0), ops.logSoftmax(on(A), 1)],
  ],
  [
    'matmul, bmm, transposed and broadcast operands',
    (on) => [
      ops.matmul(on(A), on(A).t()),
      ops.matmul(on(A).t(), on(randnFixed)),
      ops.matmul(on(A).reshape([3, 2, 2]), on(A).reshape([3, 2, 2])),
    ],
  ],
  // See Note [Tiled gpu matmul]: odd M, N and K (partial 2x2 blocks, K not a multiple of 4), 1x1, batched,
  // broadcast batches, transposed and sliced operands
  [
    'matmul of odd shapes, batched and broadcast',
    (on) => [
      ops.matmul(on(MM[0]!), on(MM[1]!)),
      ops.matmul(on(MM[2]!), on(MM[3]!)),
      ops.matmul(on(MM[4]!), on(MM[5]!)),
      ops.matmul(on(MM[6]!), on(MM[7]!)),
      ops.matmul(on(MM[8]!).transpose(1, 2), on(MM[9]!).slice(2, 1, 6)),
      ops.matmul(on(MM[1]!).t(), on(MM[0]!).t()),
    ],
  ],
  [
    'gather, indexSelect, oneHot',
    (on) => [
      ops.gather(on(A), 1, on(I)),
      ops.indexSelect(on(A), 0, on(tensor(new Int32Array([2, 0])))),
      ops.oneHot(on(I), 3),
    ],
  ],
  [
    'scatterAdd, indexAdd, maskedFill',
    (on) => [
      ops.scatterAdd(on(A), 1, on(I), on(A)),
      ops.indexAdd(on(A), 0, on(tensor(new Int32Array([2, 0, 2]))), on(A)),
      ops.maskedFill(on(A), on(A).gt(0), -1),
    ],
  ],
  [
    'cat, stack, split, sliceScatter',
    (on) => [
      ops.cat([on(A), on(A).mul(2)], 1),
      ops.stack([on(B), on(B)], 0),
      ...ops.split(on(A), 2, 1),
      ops.sliceScatter(on(B).slice(0, 0, 2), [4], 0, 1, 4, 2),
    ],
  ],
  // See Note [gpu folds in passes]: rows longer than gpu.js's loop cap (65536), folded in chunks
  // (sums over integers, exact in any order; max over LI has ties: the first occurrence wins on both devices)
  [
    'reductions and softmax over 70001 elements',
    (on) => [ops.sum(on(LI), 1), ops.sum(on(LI)), ops.max(on(LI), 1).indices, ops.argmin(on(L)), ops.softmax(on(L), 1)],
  ],
  // small integers: every summation order gives the same float32 sum, so a missed K slice shows
  ['matmul with K past the loop cap', (on) => ops.matmul(on(LI), on(LI).t())],
  [
    'NaN propagates through max, min, argmax, argmin',
    (on) => [
      ops.max(on(N), 1).values,
      ops.max(on(N), 1).indices,
      ops.min(on(N)),
      ops.argmax(on(N)),
      ops.argmin(on(N), 0),
      ops.softmax(on(N), 1),
    ],
  ],
  [
    'empty tensors',
    (on) => [
      on(randn([0, 3])).add(1),
      ops.sum(on(randn([0, 3])), 0),
      ops.matmul(on(randn([2, 0])), on(randn([0, 3]))),
      ops.cat([on(randn([0, 2])), on(A).slice(1, 0, 2)], 0),
    ],
  ],
  // See Note [gpu elementwise kernels]: coalesced dims, so rank 6 works wherever dims merge to 5 or fewer
  [
    'rank-6 maps, broadcasts, transposes and reductions',
    (on) => [
      on(R6).mul(2),
      on(R6).add(on(R6).slice(5, 0, 1)),
      on(R6).transpose(0, 1).exp(),
      ops.sum(on(R6), 3),
      ops.softmax(on(R6), 4),
    ],
  ],
  [
    'batchNorm (training: output and running stats; eval), layerNorm, seeded dropout, embedding',
    (on) => {
      const runningMean = on(B).clone();
      const runningVar = on(P).select(0, 0).clone();
      const train = ops.batchNorm(on(A), on(B), null, runningMean, runningVar, { training: true });
      manualSeed(23);
      return [
        train,
        runningMean,
        runningVar,
        ops.batchNorm(on(A).unsqueeze(2), null, on(B), on(B), on(P).select(0, 1)),
        ops.layerNorm(on(A), [4], { weight: on(B), bias: on(B) }),
        ops.dropout(on(A), 0.5, true),
        ops.embedding(on(A), on(I)),
      ];
    },
  ],
  [
    'in-place writes into views',
    (on) => {
      const x = on(A).clone();
      x.slice(1, 1, 3).add_(10);
      x.select(0, 2).fill_(7);
      x.t()
        .slice(0, 0, 1)
        .copy_(on(tensor([[1, 2, 3]])));
      return x;
    },
  ],
];
const randnFixed = randn([3, 5]);
const MM = [
  [7, 5],
  [5, 9],
  [1, 1],
  [1, 1],
  [3, 1, 6],
  [3, 6, 3],
  [4, 1, 5, 33],
  [2, 33, 7],
  [2, 9, 3],
  [2, 9, 7],
].map((shape) => randn(shape));
const L = randn([2, 70_001]);
const R6 = randn([2, 3, 1, 4, 3, 2]);
const LI = ops.randint(-2, 3, [2, 70_001]).to('float32');
const N = tensor([
  [1, Number.NaN, 3],
  [4, 5, 6],
]);
