import { describe, expect, it } from 'vitest';
import { type Tensor, manualSeed, randn, tensor } from '@wiregrad/autograd';
import {
  BatchNorm1d,
  BatchNorm2d,
  Dropout,
  Embedding,
  Flatten,
  GELU,
  LayerNorm,
  Linear,
  LogSoftmax,
  ModuleDict,
  ModuleList,
  ReLU,
  SiLU,
  Sigmoid,
  Softmax,
  Tanh,
} from '../index.js';

const close = (a: Tensor, b: Tensor) => expect(a.sub(b).abs().max().item()).toBeLessThan(1e-6);

describe('layers', () => {
  it('activations are their tensor ops; Softmax/LogSoftmax take the dim', () => {
    const x = randn([3, 4]);
    close(new Tanh().forward(x), x.tanh());
    close(new Sigmoid().forward(x), x.sigmoid());
    close(new SiLU().forward(x), x.silu());
    close(new GELU().forward(x), x.gelu());
    close(new Softmax(0).forward(x), x.softmax(0));
    close(new LogSoftmax(1).forward(x), x.logSoftmax(1));
    expect(new Softmax(1).toString()).toBe('Softmax(dim=1)');
  });

  it('Flatten keeps the batch dim by default', () => {
    expect(new Flatten().forward(randn([2, 3, 4, 5])).shape).toEqual([2, 60]);
    expect(new Flatten(0, 1).forward(randn([2, 3, 4])).shape).toEqual([6, 4]);
  });

  it('Dropout drops in training mode only', () => {
    manualSeed(4);
    const d = new Dropout(0.5);
    const x = randn([1000]).abs().add(1);
    expect(d.forward(x).eq(0).sum().item()).toBeGreaterThan(400);
    d.eval();
    expect(d.forward(x)).toBe(x);
    expect(() => new Dropout(-0.1)).toThrow('dropout probability has to be between 0 and 1, but got -0.1');
  });

  it("BatchNorm: PyTorch's parameters and buffers, input checks, running stats updated only in training", () => {
    const bn = new BatchNorm2d(3);
    expect(bn.weight!.tolist()).toEqual([1, 1, 1]);
    expect(bn.bias!.tolist()).toEqual([0, 0, 0]);
    expect([bn.runningMean!.tolist(), bn.runningVar!.tolist(), bn.numBatchesTracked!.item()]).toEqual([
      [0, 0, 0],
      [1, 1, 1],
      0,
    ]);
    expect(Object.keys(bn.stateDict())).toEqual([
      'weight',
      'bias',
      'running_mean',
      'running_var',
      'num_batches_tracked',
    ]);
    expect(() => bn.forward(randn([2, 3, 4]))).toThrow('expected 4D input (got 3D input)');
    expect(() => new BatchNorm1d(3).forward(randn([2, 3, 4, 4]))).toThrow('expected 2D or 3D input (got 4D input)');
    bn.forward(randn([4, 3, 2, 2]).add(5));
    expect(bn.numBatchesTracked!.item()).toBe(1);
    const mean = bn.runningMean!.tolist() as number[];
    bn.eval().forward(randn([4, 3, 2, 2]));
    expect(bn.runningMean!.tolist()).toEqual(mean);
    expect(bn.numBatchesTracked!.item()).toBe(1);
    bn.resetRunningStats();
    expect(bn.runningVar!.tolist()).toEqual([1, 1, 1]);
    expect(new BatchNorm1d(2, { affine: false, trackRunningStats: false }).stateDict()).toEqual({});
  });

  it('LayerNorm: ones and zeros, an int shape means the last dim', () => {
    const ln = new LayerNorm(4);
    expect([ln.weight!.tolist(), ln.bias!.tolist()]).toEqual([
      [1, 1, 1, 1],
      [0, 0, 0, 0],
    ]);
    const y = ln.forward(randn([3, 4]).mul(5).add(2));
    expect(y.mean(1).abs().max().item()).toBeLessThan(1e-5);
    expect(new LayerNorm([2, 2], { elementwiseAffine: false }).parameters()).toEqual([]);
  });

  it('Embedding: N(0, 1) weights, a zero padding row, negative paddingIdx counted from the end', () => {
    manualSeed(6);
    const e = new Embedding(2000, 8, { paddingIdx: -1 });
    expect(e.paddingIdx).toBe(1999);
    expect(e.weight.select(0, 1999).abs().sum().item()).toBe(0);
    const w = e.weight.narrow(0, 0, 1999);
    expect(w.mean().item()).toBeCloseTo(0, 1);
    expect(w.std().item()).toBeCloseTo(1, 1);
    expect(e.forward(tensor([[1, 2, 3]], { dtype: 'int32' })).shape).toEqual([1, 3, 8]);
    expect(() => new Embedding(3, 2, { paddingIdx: 3 })).toThrow('Padding_idx must be within num_embeddings');
  });

  it('ModuleList and ModuleDict register their modules by position and by key; neither has a forward', () => {
    const list = new ModuleList([new Linear(2, 2)]).append(new ReLU()).extend([new Linear(2, 1)]);
    list.insert(1, new Tanh());
    expect(list.length).toBe(4);
    expect([...list].map((m) => m.constructor.name)).toEqual(['Linear', 'Tanh', 'ReLU', 'Linear']);
    expect(Object.keys(list.stateDict())).toEqual(['0.weight', '0.bias', '3.weight', '3.bias']);
    expect(() => list.forward()).toThrow('Module [ModuleList] is missing the required "forward" function');
    const dict = new ModuleDict({ a: new Linear(1, 1) }).set('b', new Linear(1, 1, { bias: false }));
    expect(dict.keys()).toEqual(['a', 'b']);
    expect(Object.keys(dict.stateDict())).toEqual(['a.weight', 'a.bias', 'b.weight']);
    expect(dict.delete('a')).toBe(true);
    expect([dict.has('a'), dict.size]).toEqual([false, 1]);
    expect(() => dict.set('x.y', new ReLU())).toThrow('module name can\'t contain ".", got: x.y');
    expect(() => dict.forward()).toThrow('Module [ModuleDict] is missing the required "forward" function');
  });
});
