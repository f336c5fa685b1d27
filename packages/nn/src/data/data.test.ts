import { describe, expect, it } from 'vitest';
import { type Tensor, arange, tensor } from '@wiregrad/autograd';
import { DataLoader, Generator, TensorDataset, randomSplit } from '../index.js';

const ds = () => new TensorDataset(arange(10).reshape([10, 1]), arange(10).mul(10));

describe('TensorDataset, DataLoader, randomSplit (torch.utils.data)', () => {
  it('TensorDataset: one row of each tensor per index; sizes must agree', () => {
    const d = ds();
    expect(d.length).toBe(10);
    expect(d.getItem(3).map((t) => t.tolist())).toEqual([[3], 30]);
    expect(() => new TensorDataset(arange(3), arange(4))).toThrow('Size mismatch between tensors');
    expect(() => d.getItem(10)).toThrow('index 10 is out of bounds for dimension 0 with size 10');
  });

  it('DataLoader batches in order, the last one smaller unless dropLast', () => {
    const batches = [...new DataLoader(ds(), { batchSize: 4 })].map(([x, y]) => [x!.shape, y!.tolist()]);
    expect(batches).toEqual([
      [
        [4, 1],
        [0, 10, 20, 30],
      ],
      [
        [4, 1],
        [40, 50, 60, 70],
      ],
      [
        [2, 1],
        [80, 90],
      ],
    ]);
    const loader = new DataLoader(ds(), { batchSize: 4, dropLast: true });
    expect([loader.length, [...loader].length]).toEqual([2, 2]);
    expect(new DataLoader(ds(), { batchSize: 4 }).length).toBe(3);
  });

  it('shuffle with a seeded generator: a permutation per epoch, the same for the same seed', () => {
    const order = (loader: Iterable<Tensor[]>) => [...loader].flatMap(([, y]) => y!.tolist() as number[]);
    const a = new DataLoader(ds(), { batchSize: 3, shuffle: true, generator: 42 });
    const b = new DataLoader(ds(), { batchSize: 3, shuffle: true, generator: new Generator(42) });
    const e1 = order(a);
    expect([...e1].sort((x, y) => x - y)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(e1).not.toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(order(b)).toEqual(e1);
    expect(order(a)).not.toEqual(e1); // the next epoch draws the next permutation
  });

  it('a sampler gives the indices of each epoch, in its order, and the number of batches; it excludes shuffle', () => {
    let epoch = 0;
    const sampler = {
      length: 5,
      *[Symbol.iterator]() {
        for (let i = 0; i < 5; i++) yield (i * 3 + epoch) % 10;
      },
    };
    const loader = new DataLoader(ds(), { batchSize: 2, sampler });
    const order = () => [...loader].flatMap(([, y]) => y!.tolist() as number[]);
    expect(loader.length).toBe(3);
    expect(order()).toEqual([0, 30, 60, 90, 20]);
    epoch = 1;
    expect(order()).toEqual([10, 40, 70, 0, 30]);
    expect(new DataLoader(ds(), { batchSize: 2, sampler, dropLast: true }).length).toBe(2);
    expect(() => new DataLoader(ds(), { sampler, shuffle: true })).toThrow(
      'sampler option is mutually exclusive with shuffle',
    );
  });

  it('a collate function gets the samples; the default collate stacks tensors, numbers and fields', () => {
    const items = { length: 3, getItem: (i: number) => ({ x: tensor([i, i]), label: i, name: `n${i}` }) };
    const [batch] = [...new DataLoader(items, { batchSize: 3 })];
    const b = batch as unknown as {
      x: { tolist(): unknown };
      label: { tolist(): unknown; dtype: string };
      name: string[];
    };
    expect([b.x.tolist(), b.label.tolist(), b.label.dtype, b.name]).toEqual([
      [
        [0, 0],
        [1, 1],
        [2, 2],
      ],
      [0, 1, 2],
      'int32',
      ['n0', 'n1', 'n2'],
    ]);
    const sums = [
      ...new DataLoader(ds(), { batchSize: 5, collateFn: (s) => s.reduce((acc, [, y]) => acc + y!.item(), 0) }),
    ];
    expect(sums).toEqual([100, 350]);
    expect(() => new DataLoader(ds(), { batchSize: 0 })).toThrow(
      'batch_size should be a positive integer value, but got batch_size=0',
    );
  });

  it('randomSplit: disjoint subsets covering the dataset, by counts or by fractions', () => {
    const [train, test] = randomSplit(ds(), [7, 3], { generator: 1 });
    expect([train!.length, test!.length]).toEqual([7, 3]);
    expect([...train!.indices, ...test!.indices].sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(randomSplit(ds(), [7, 3], { generator: 1 })[1]!.indices).toEqual(test!.indices);
    expect(randomSplit(ds(), [0.55, 0.45]).map((s) => s.length)).toEqual([6, 4]);
    expect(() => randomSplit(ds(), [5, 4])).toThrow(
      'Sum of input lengths does not equal the length of the input dataset!',
    );
    const [x] = [...new DataLoader(test!, { batchSize: 3 })];
    expect((x as { tolist(): unknown }[])[1]!.tolist()).toEqual(test!.indices.map((i) => i * 10));
  });
});
