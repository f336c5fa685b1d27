import { describe, expect, it } from 'vitest';
import { loadFixture } from '../__tests__/fixture.js';
import { BatchNorm1d, BatchNorm2d, Linear, Sequential } from '../index.js';

const T = loadFixture<{
  batchNormLegacy: {
    numBatchesTracked: number;
    runningMean: number[];
    missingKeys: string[];
    unexpectedKeys: string[];
  };
}>('fixes').batchNormLegacy;

describe('BatchNorm loads a state dict without num_batches_tracked (an old checkpoint), as PyTorch 1.13', () => {
  it('with strict: no missing key, the counter set to 0, the rest copied', () => {
    const bn = new BatchNorm1d(3);
    bn.numBatchesTracked!.fill_(5);
    const { num_batches_tracked: _dropped, ...sd } = new BatchNorm1d(3).stateDict();
    sd.running_mean!.fill_(0.5);
    const result = bn.loadStateDict(sd, { strict: true });
    expect(result).toEqual({ missingKeys: T.missingKeys, unexpectedKeys: T.unexpectedKeys });
    expect(bn.numBatchesTracked!.item()).toBe(T.numBatchesTracked);
    expect(bn.runningMean!.tolist()).toEqual(T.runningMean);
  });

  it('inside a model, under its prefix; the state dict given is not modified', () => {
    const net = new Sequential(new Linear(2, 3), new BatchNorm2d(3));
    net.stateDict()['1.num_batches_tracked']!.fill_(7);
    expect(net.stateDict()['1.num_batches_tracked']!.item()).toBe(7);
    const sd = new Sequential(new Linear(2, 3), new BatchNorm2d(3)).stateDict();
    delete sd['1.num_batches_tracked'];
    expect(net.loadStateDict(sd)).toEqual({ missingKeys: [], unexpectedKeys: [] });
    expect(net.stateDict()['1.num_batches_tracked']!.item()).toBe(0);
    expect(Object.keys(sd)).not.toContain('1.num_batches_tracked');
  });

  it('other missing keys are still reported, and a BatchNorm without running stats has no such default', () => {
    const { running_var: _v, num_batches_tracked: _n, ...sd } = new BatchNorm1d(3).stateDict();
    expect(() => new BatchNorm1d(3).loadStateDict(sd)).toThrow('Missing key(s) in state_dict: "running_var".');
    const noStats = new BatchNorm1d(3, { trackRunningStats: false });
    expect(noStats.legacyStateDefaults()).toEqual({});
  });
});
