import { readFileSync } from 'node:fs';
import { TensorDataset, DataLoader } from '@wiregrad/nn';
import { arange } from '@wiregrad/autograd';
import { describe, expect, it } from 'vitest';
import { randperm } from './mt19937.js';
import { DistributedSampler } from './sampler.js';

interface Case {
  n: number;
  numReplicas: number;
  shuffle: boolean;
  dropLast: boolean;
  seed: number;
  epoch: number;
  ranks: { len: number; indices: number[] }[];
}
// computed by PyTorch 1.13: __tests__/fixtures/gen_sampler.py
const fixtures = JSON.parse(readFileSync(new URL('./__tests__/fixtures/sampler.json', import.meta.url), 'utf8')) as {
  cases: Case[];
  randperm: { seed: number; n: number; perm: number[] }[];
};

describe('DistributedSampler (torch.utils.data.distributed)', () => {
  it("randperm is PyTorch's for a seeded generator", () => {
    for (const { seed, n, perm } of fixtures.randperm) expect(randperm(n, seed)).toEqual(perm);
  });

  it.each(
    fixtures.cases.map(
      (c) =>
        [
          `n=${c.n} R=${c.numReplicas} shuffle=${c.shuffle} dropLast=${c.dropLast} seed=${c.seed} epoch=${c.epoch}`,
          c,
        ] as const,
    ),
  )("gives every rank PyTorch's indices and length: %s", (_, c) => {
    c.ranks.forEach(({ len, indices }, rank) => {
      const s = new DistributedSampler({ length: c.n }, { ...c, rank });
      s.setEpoch(c.epoch);
      expect([s.length, [...s]]).toEqual([len, indices]);
    });
  });

  it('refuses a rank outside [0, numReplicas) as PyTorch does', () => {
    expect(() => new DistributedSampler({ length: 4 }, { numReplicas: 2, rank: 2 })).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: 'Invalid rank 2, rank should be in the interval [0, 1]',
      }),
    );
  });

  it('without numReplicas or rank it needs a process group', () => {
    expect(() => new DistributedSampler({ length: 4 })).toThrow(expect.objectContaining({ code: 'NOT_INITIALIZED' }));
  });

  it("is a DataLoader's sampler: each rank loads its share, a new shuffle per epoch", () => {
    const ds = new TensorDataset(arange(10).mul(10));
    const load = (rank: number, epoch: number) => {
      const sampler = new DistributedSampler(ds, { numReplicas: 3, rank, seed: 7 });
      sampler.setEpoch(epoch);
      const loader = new DataLoader(ds, { batchSize: 2, sampler });
      return { batches: loader.length, values: [...loader].flatMap(([y]) => y!.tolist() as number[]) };
    };
    const epoch0 = [0, 1, 2].map((r) => load(r, 0));
    expect(epoch0.map((e) => e.batches)).toEqual([2, 2, 2]);
    // 10 samples padded to 12: every sample appears, two of them twice
    expect(new Set(epoch0.flatMap((e) => e.values)).size).toBe(10);
    expect(epoch0.flatMap((e) => e.values)).toHaveLength(12);
    expect(epoch0.map((e) => e.values)).toEqual(
      [0, 1, 2].map((rank) => [...new DistributedSampler(ds, { numReplicas: 3, rank, seed: 7 })].map((i) => i * 10)),
    );
    expect(load(0, 1).values).not.toEqual(epoch0[0]!.values);
  });
});
