import { describe, expect, it } from 'vitest';
import { type NestedArray, manualSeed, randn, tensor } from '@wiregrad/autograd';
import { expectClose, f64, loadFixture } from '../__tests__/fixture.js';
import {
  AdaptiveAvgPool2d,
  AvgPool2d,
  BatchNorm2d,
  Conv1d,
  Conv2d,
  Flatten,
  Linear,
  MaxPool2d,
  ReLU,
  Sequential,
  crossEntropy,
} from '../index.js';

interface Fixture {
  x: NestedArray;
  y: number[];
  stateDict: Record<string, NestedArray>;
  loss: number;
  grads: Record<string, NestedArray>;
  runningAfter: Record<string, NestedArray>;
  lenetKeys: string[];
  lenetRepr: string;
  extraRepr: string;
}
const T = loadFixture<Fixture>('convnet');

const lenet = () =>
  new Sequential(
    new Conv2d(1, 6, 5, { padding: 2 }),
    new ReLU(),
    new MaxPool2d(2),
    new Conv2d(6, 16, 5),
    new ReLU(),
    new MaxPool2d(2),
    new Flatten(),
    new Linear(400, 120),
    new ReLU(),
    new Linear(120, 84),
    new ReLU(),
    new Linear(84, 10),
  );

describe('convolution and pooling layers', () => {
  it('a small convnet loaded with PyTorch’s weights gives its loss, every gradient and the running stats after', () => {
    const net = new Sequential(
      new Conv2d(1, 3, 3, { padding: 1 }),
      new BatchNorm2d(3),
      new ReLU(),
      new MaxPool2d(2),
      new Conv2d(3, 4, 3, { padding: 'same', bias: false }),
      new AvgPool2d(2),
      new Flatten(),
      new Linear(16, 3),
    ).to('float64');
    net.loadStateDict(
      Object.fromEntries(
        Object.entries(T.stateDict).map(([k, v]) => [
          k,
          k.endsWith('num_batches_tracked') ? tensor(v, { dtype: 'int32' }) : f64(v),
        ]),
      ),
    );
    const loss = crossEntropy(net.forward(f64(T.x)), tensor(T.y, { dtype: 'int32' }));
    expect(loss.item()).toBeCloseTo(T.loss, 12);
    loss.backward();
    for (const [name, p] of net.namedParameters()) expectClose(p.grad!, T.grads[name]!);
    const sd = net.stateDict();
    for (const [k, v] of Object.entries(T.runningAfter)) expectClose(sd[k]!, v);
  });

  it("LeNet-5 has PyTorch's state dict keys and printout; so do the other options", () => {
    expect(Object.keys(lenet().stateDict())).toEqual(T.lenetKeys);
    expect(lenet().toString()).toBe(T.lenetRepr);
    const extra = new Sequential(
      new Conv1d(4, 8, 3, { stride: 2, groups: 2, bias: false }),
      new Conv2d(2, 4, [3, 5], { dilation: [2, 1], padding: 'same' }),
      new MaxPool2d([2, 3], { stride: 1, ceilMode: true }),
      new AvgPool2d(3, { stride: 2, padding: 1 }),
      new AdaptiveAvgPool2d([null, 7]),
    );
    expect(extra.toString()).toBe(T.extraRepr);
  });

  it("Conv2d's default init is PyTorch's: weight and bias in ±1/√(in·kh·kw)", () => {
    manualSeed(8);
    const c = new Conv2d(16, 32, 3);
    const bound = 1 / Math.sqrt(16 * 9);
    expect(c.weight.shape).toEqual([32, 16, 3, 3]);
    expect(c.weight.abs().max().item()).toBeLessThanOrEqual(bound);
    expect(c.weight.abs().max().item()).toBeGreaterThan(0.99 * bound);
    expect(c.weight.var().item() / (bound ** 2 / 3)).toBeCloseTo(1, 1);
    expect(c.bias!.abs().max().item()).toBeLessThanOrEqual(bound);
    expect(new Conv1d(4, 6, 3, { groups: 2 }).weight.shape).toEqual([6, 2, 3]);
  });

  it("Conv2d checks its arguments with PyTorch's messages", () => {
    expect(() => new Conv2d(3, 4, 3, { groups: 2 })).toThrow('in_channels must be divisible by groups');
    expect(() => new Conv2d(4, 3, 3, { groups: 2 })).toThrow('out_channels must be divisible by groups');
    expect(() => new Conv2d(3, 4, 3, { padding: 'full' as never })).toThrow(
      "Invalid padding string 'full', should be one of ['valid', 'same']",
    );
    expect(() => new Conv2d(3, 4, 3, { padding: 'same', stride: 2 })).toThrow(
      "padding='same' is not supported for strided convolutions",
    );
  });

  it('MaxPool2d with returnIndices returns [values, indices]; pooling layers keep shapes as PyTorch', () => {
    const x = randn([2, 3, 8, 8]);
    const [values, indices] = new MaxPool2d(2, { returnIndices: true }).forward(x);
    expect(values.shape).toEqual([2, 3, 4, 4]);
    expect(indices.dtype).toBe('int32');
    expect(new AvgPool2d(3, { stride: 1, padding: 1 }).forward(x).shape).toEqual([2, 3, 8, 8]);
    expect(new AdaptiveAvgPool2d(1).forward(x).shape).toEqual([2, 3, 1, 1]);
    expect(lenet().forward(randn([4, 1, 28, 28])).shape).toEqual([4, 10]);
  });
});
