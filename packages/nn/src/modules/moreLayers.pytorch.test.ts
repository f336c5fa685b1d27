import { describe, expect, it } from 'vitest';
import { type NestedArray, type Tensor, gradcheck, manualSeed, noGrad, ones, randn } from '@wiregrad/autograd';
import { expectClose, f64, jsShapes, loadFixture } from '../__tests__/fixture.js';
import * as F from '../functional/index.js';
import {
  AdaptiveMaxPool2d,
  AvgPool1d,
  ConvTranspose1d,
  ConvTranspose2d,
  Dropout2d,
  GroupNorm,
  InstanceNorm1d,
  InstanceNorm2d,
  MaxPool1d,
  type Module,
} from '../index.js';

interface Case {
  inputs: Record<string, NestedArray>;
  y: NestedArray;
  grads: Record<string, NestedArray>;
  indices?: NestedArray;
}
interface Step {
  x: NestedArray;
  y: NestedArray;
  dx: NestedArray;
  dparams: Record<string, NestedArray>;
  buffers: Record<string, NestedArray>;
}
interface OutputSizeCase {
  params: Record<string, NestedArray>;
  x: NestedArray;
  outputSize: number[];
  y: NestedArray;
  dx: NestedArray;
}
const T = loadFixture<{
  functional: Record<string, Case>;
  modules: Record<string, { params: Record<string, NestedArray>; steps: Step[]; eval: NestedArray }>;
  outputSize: Record<string, OutputSizeCase | string>;
  repr: Record<string, string>;
  stateDictKeys: Record<string, string[]>;
  paramShapes: Record<string, Record<string, number[]>>;
}>('layers');

const ramp = (n: number) => Array.from({ length: n }, (_, i) => (n === 1 ? -1 : -1 + (2 * i) / (n - 1)));
type Fn = (i: Record<string, Tensor>) => Tensor | [Tensor, Tensor];

const functional: [string, Fn][] = [
  ['groupNorm', ({ x, w, b }) => F.groupNorm(x!, 3, w, b)],
  ['groupNormNoAffineEps', ({ x }) => F.groupNorm(x!, 2, null, null, 1e-2)],
  ['groupNorm2dInput', ({ x, w }) => F.groupNorm(x!, 1, w)],
  ['instanceNorm', ({ x, w, b }) => F.instanceNorm(x!, { weight: w, bias: b })],
  ['convTranspose2d', ({ x, w, b }) => F.convTranspose2d(x!, w!, b)],
  [
    'convTranspose2dStridePadOutputPad',
    ({ x, w, b }) => F.convTranspose2d(x!, w!, b, { stride: 2, padding: 1, outputPadding: 1 }),
  ],
  [
    'convTranspose2dGroupsDilation',
    ({ x, w, b }) => F.convTranspose2d(x!, w!, b, { stride: [2, 1], padding: [2, 1], groups: 2, dilation: 2 }),
  ],
  [
    'convTranspose2dOutputPadPastPadding',
    ({ x, w }) =>
      F.convTranspose2d(x!, w!, null, { stride: [3, 2], padding: [0, 1], outputPadding: [2, 1], dilation: [1, 2] }),
  ],
  ['convTranspose2dUnbatched', ({ x, w }) => F.convTranspose2d(x!, w!, null, { stride: 2 })],
  [
    'convTranspose1d',
    ({ x, w, b }) => F.convTranspose1d(x!, w!, b, { stride: 3, padding: 2, outputPadding: 2, groups: 2 }),
  ],
  ['convTranspose1dDilationUnbatched', ({ x, w }) => F.convTranspose1d(x!, w!, null, { dilation: 3, padding: 1 })],
  ['maxPool1d', ({ x }) => F.maxPool1d(x!, 3, { stride: 2, padding: 1, returnIndices: true })],
  [
    'maxPool1dDilationCeil',
    ({ x }) => F.maxPool1d(x!, 2, { stride: 2, dilation: 2, ceilMode: true, returnIndices: true }),
  ],
  ['maxPool1dUnbatched', ({ x }) => F.maxPool1d(x!, 2)],
  ['avgPool1d', ({ x }) => F.avgPool1d(x!, 3)],
  [
    'avgPool1dPadExcludeCeil',
    ({ x }) => F.avgPool1d(x!, 3, { stride: 2, padding: 1, ceilMode: true, countIncludePad: false }),
  ],
  ['avgPool1dUnbatched', ({ x }) => F.avgPool1d(x!, 2, { stride: 1, padding: 1 })],
  ['adaptiveMaxPool2d', ({ x }) => F.adaptiveMaxPool2d(x!, [3, 2], { returnIndices: true })],
  ['adaptiveMaxPool2dKeepWidth', ({ x }) => F.adaptiveMaxPool2d(x!, [null, 4], { returnIndices: true })],
  ['adaptiveMaxPool2dGlobalUnbatched', ({ x }) => F.adaptiveMaxPool2d(x!, 1, { returnIndices: true })],
  ['adaptiveMaxPool2dTies', ({ x }) => F.adaptiveMaxPool2d(x!, [3, 3], { returnIndices: true })],
];

describe('functional layers agree with PyTorch 1.13 (fixtures/layers.json)', () => {
  it.each(functional)('%s: output (and indices), and the gradients of sum(y r)', (name, f) => {
    const c = T.functional[name]!;
    const inputs = Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, f64(v, true)]));
    const out = f(inputs);
    const [y, indices] = Array.isArray(out) ? out : [out, null];
    expectClose(y, c.y);
    if (c.indices) expect(indices!.tolist()).toEqual(c.indices);
    y.mul(f64(ramp(y.numel)).reshape([...y.shape]))
      .sum()
      .backward();
    for (const [k, g] of Object.entries(c.grads)) expectClose(inputs[k]!.grad!, g);
  });
});

const modules: [string, () => Module][] = [
  ['instanceNorm1dTracked', () => new InstanceNorm1d(3, { affine: true, trackRunningStats: true, momentum: 0.2 })],
  ['instanceNorm2d', () => new InstanceNorm2d(2)],
  ['instanceNorm1dUnbatched', () => new InstanceNorm1d(3, { trackRunningStats: true })],
  ['groupNorm', () => new GroupNorm(2, 4)],
];

describe('GroupNorm and InstanceNorm modules agree with PyTorch 1.13', () => {
  it.each(modules)('%s: outputs, gradients and running stats per training step; then eval mode', (name, make) => {
    const { params, steps, eval: evalOut } = T.modules[name]!;
    const m = make().to('float64');
    noGrad(() => {
      for (const [n, p] of m.namedParameters()) p.copy_(f64(params[n]!));
    });
    m.train();
    for (const s of steps) {
      m.zeroGrad();
      const x = f64(s.x, true);
      const y = m.forward(x);
      expectClose(y, s.y);
      y.mul(f64(ramp(y.numel)).reshape([...y.shape]))
        .sum()
        .backward();
      expectClose(x.grad!, s.dx);
      for (const [n, p] of m.namedParameters()) expectClose(p.grad!, s.dparams[n]!);
      for (const [n, b] of m.namedBuffers()) expectClose(b, s.buffers[n]!);
    }
    m.eval();
    expectClose(m.forward(f64(steps.at(-1)!.x)), evalOut);
  });

  it("the new modules print as PyTorch's, with PyTorch's state dict keys and parameter shapes", () => {
    const made: Record<string, Module> = {
      groupNorm: new GroupNorm(3, 6),
      instanceNorm1d: new InstanceNorm1d(4, { affine: true, trackRunningStats: true }),
      instanceNorm2d: new InstanceNorm2d(3),
      convTranspose2d: new ConvTranspose2d(4, 6, 3, { stride: 2, padding: 1, outputPadding: 1, groups: 2 }),
      convTranspose1d: new ConvTranspose1d(2, 3, 4, { bias: false, dilation: 2 }),
      maxPool1d: new MaxPool1d(3, { stride: 2 }),
      avgPool1d: new AvgPool1d(3),
      adaptiveMaxPool2d: new AdaptiveMaxPool2d([3, null]),
      dropout2d: new Dropout2d(0.3),
    };
    for (const [name, m] of Object.entries(made)) {
      expect(m.toString()).toBe(T.repr[name]);
      expect(Object.keys(m.stateDict())).toEqual(T.stateDictKeys[name]);
      expect(Object.fromEntries(m.namedParameters().map(([n, p]) => [n, [...p.shape]]))).toEqual(T.paramShapes[name]);
    }
  });
});

describe("ConvTranspose's forward(x, outputSize) agrees with PyTorch 1.13", () => {
  const made: [string, () => ConvTranspose1d | ConvTranspose2d][] = [
    ['convTranspose2d', () => new ConvTranspose2d(2, 3, 3, { stride: 2, padding: 1 })],
    ['convTranspose2dFullSize', () => new ConvTranspose2d(2, 3, 3, { stride: [2, 3], padding: 1 })],
    ['convTranspose1dUnbatched', () => new ConvTranspose1d(2, 2, 4, { stride: 3, bias: false })],
  ];
  it.each(made)('%s: the outputPadding that gives the requested size; output and input gradient', (name, make) => {
    const c = T.outputSize[name] as OutputSizeCase;
    const m = make().to('float64');
    noGrad(() => {
      for (const [n, p] of m.namedParameters()) p.copy_(f64(c.params[n]!));
    });
    const x = f64(c.x, true);
    const y = m.forward(x, c.outputSize);
    expectClose(y, c.y);
    y.mul(f64(ramp(y.numel)).reshape([...y.shape]))
      .sum()
      .backward();
    expectClose(x.grad!, c.dx);
  });

  it("refuses sizes no outputPadding gives, with PyTorch's messages", () => {
    const x = ones([1, 2, 4, 4]);
    expect(() => new ConvTranspose2d(2, 3, 3, { stride: 2, padding: 1 }).forward(x, [10, 8])).toThrow(
      jsShapes(T.outputSize.error as string),
    );
    expect(() => new ConvTranspose2d(2, 3, 3, { stride: 2 }).forward(x, [1, 9])).toThrow(
      jsShapes(T.outputSize.errorRange as string),
    );
    expect(() => new ConvTranspose2d(2, 3, 3, { stride: 2 }).forward(x, [1, 2, 3])).toThrow(
      T.outputSize.errorLength as string,
    );
  });
});

describe('the new layers: gradcheck in float64', () => {
  manualSeed(31);
  const leaf = (...shape: number[]) => randn(shape).to('float64').requiresGrad_();
  it.each([
    [
      'convTranspose2d (stride, padding, output padding, groups, dilation)',
      (x: Tensor, w: Tensor, b: Tensor) =>
        F.convTranspose2d(x, w, b, { stride: [2, 3], padding: 1, outputPadding: [1, 0], groups: 2, dilation: [1, 2] }),
      [leaf(2, 4, 3, 3), leaf(4, 2, 3, 2), leaf(4)],
    ],
    [
      'convTranspose1d',
      (x: Tensor, w: Tensor) => F.convTranspose1d(x, w, null, { stride: 2, outputPadding: 1 }),
      [leaf(1, 2, 4), leaf(2, 3, 3)],
    ],
    ['groupNorm', (x: Tensor, w: Tensor, b: Tensor) => F.groupNorm(x, 2, w, b), [leaf(2, 4, 3), leaf(4), leaf(4)]],
    ['instanceNorm', (x: Tensor, w: Tensor) => F.instanceNorm(x, { weight: w }), [leaf(2, 3, 4), leaf(3)]],
    ['adaptiveMaxPool2d', (x: Tensor) => F.adaptiveMaxPool2d(x, [2, 3]), [leaf(1, 2, 5, 5)]],
    ['maxPool1d', (x: Tensor) => F.maxPool1d(x, 3, { stride: 2, padding: 1 }), [leaf(2, 2, 7)]],
    ['avgPool1d', (x: Tensor) => F.avgPool1d(x, 3, { stride: 2, padding: 1, countIncludePad: false }), [leaf(2, 2, 7)]],
  ] as [string, (...t: Tensor[]) => Tensor, Tensor[]][])('%s', (_name, f, inputs) => {
    expect(gradcheck(f, inputs, { raiseException: true })).toBe(true);
  });
});

describe('Dropout2d', () => {
  it('zeroes whole channels with probability p and scales the kept ones by 1/(1 - p); eval mode is the identity', () => {
    manualSeed(3);
    const x = ones([40, 50, 3, 2]).to('float64').requiresGrad_();
    const d = new Dropout2d(0.4);
    const y = d.forward(x);
    const channels = y.reshape([2000, 6]).tolist() as number[][];
    for (const c of channels) expect(new Set(c).size).toBe(1);
    const kept = channels.filter((c) => c[0] !== 0);
    for (const c of kept) expect(c[0]).toBeCloseTo(1 / 0.6, 12);
    expect(1 - kept.length / channels.length).toBeCloseTo(0.4, 1);
    y.sum().backward();
    expectClose(x.grad!, y.detach().tolist() as NestedArray);
    d.eval();
    expect(d.forward(x)).toBe(x);
    expect(() => new Dropout2d(1.5)).toThrow('dropout probability has to be between 0 and 1, but got 1.5');
  });
});

describe("the new layers' argument checks", () => {
  it("refuse what PyTorch refuses, with PyTorch's messages", () => {
    expect(() => F.convTranspose2d(ones([1, 1, 3, 3]), ones([1, 1, 2, 2]), null, { outputPadding: 1 })).toThrow(
      'output padding must be smaller than either stride or dilation, but got output_padding_height: 1 output_padding_width: 1 stride_height: 1 stride_width: 1 dilation_height: 1 dilation_width: 1',
    );
    expect(() => F.adaptiveMaxPool2d(ones([2, 3]), 2)).toThrow(
      'adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [2, 3]',
    );
    expect(() => F.groupNorm(ones([2, 6]), 4)).toThrow(
      'Expected number of channels in input to be divisible by num_groups, but got input of shape [2, 6] and num_groups=4',
    );
    expect(() => new GroupNorm(4, 6)).toThrow('num_channels must be divisible by num_groups');
    expect(F.groupNorm(f64([[1, 2, 3, 4]]), 4).tolist()).toEqual([[0, 0, 0, 0]]);
    expect(() => new InstanceNorm1d(3).forward(ones([3, 1]))).toThrow(
      'Expected more than 1 spatial element when training, got input size [1, 3, 1]',
    );
    expect(() => new InstanceNorm1d(3).forward(ones([2, 3, 4, 5]))).toThrow('expected 2D or 3D input (got 4D input)');
    expect(() => new InstanceNorm2d(3, { affine: true }).forward(ones([2, 4, 3, 3]))).toThrow(
      "expected input's size at dim=1 to match num_features (3), but got: 4.",
    );
  });
});
