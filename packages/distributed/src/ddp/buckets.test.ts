import { zeros } from '@wiregrad/autograd';
import { describe, expect, it } from 'vitest';
import { computeBucketAssignment } from './buckets.js';

describe('computeBucketAssignment (Note [Gradient buckets])', () => {
  const MiB = 1024 * 1024;
  it('fills buckets in reverse parameter order, a small first bucket, then buckets up to the cap', () => {
    // 0.5 MiB each (131072 float32)
    const ps = Array.from({ length: 6 }, () => zeros([131072]));
    expect(computeBucketAssignment(ps, 1.5 * MiB, 1 * MiB)).toEqual([[5, 4], [3, 2, 1], [0]]);
  });

  it('gives a parameter larger than the cap a bucket of its own, and one dtype per bucket', () => {
    const ps = [zeros([10]), zeros([10], { dtype: 'float64' }), zeros([1 << 20]), zeros([10])];
    expect(computeBucketAssignment(ps, MiB, MiB)).toEqual([[3], [2], [1], [0]]);
    expect(computeBucketAssignment([zeros([4]), zeros([4], { dtype: 'float64' }), zeros([4])], MiB, MiB)).toEqual([
      [2, 0],
      [1],
    ]);
  });
});
