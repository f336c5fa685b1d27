import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { internDims } from './internedDims.js';
import { tensor, zeros } from './index.js';

describe('interned dims (Note [Interned dims])', () => {
  it('gives equal sizes one frozen array, equal by value to what was asked', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 1 << 20 }), { maxLength: 6 }), (dims) => {
        const a = internDims(dims);
        expect(a).toEqual(dims);
        expect(Object.isFrozen(a)).toBe(true);
        expect(internDims([...dims])).toBe(a);
      }),
    );
  });

  it('never hands out the caller array when it is mutable', () => {
    const dims = [7, 9, 11];
    const a = internDims(dims);
    dims[0] = 8;
    expect(a).toEqual([7, 9, 11]);
  });

  it('tells [2, 3] from [2], [2, 3, 0] and [3, 2]', () => {
    const a = internDims([2, 3]);
    for (const other of [[2], [2, 3, 0], [3, 2], []]) expect(internDims(other)).not.toBe(a);
  });

  it('gives tensors of one shape one shape array, and contiguous ones one strides array', () => {
    const a = zeros([4, 5]);
    const b = tensor(Array.from({ length: 20 }, (_, i) => i)).reshape([4, 5]);
    expect(a.shape).toBe(b.shape);
    expect(a.strides).toBe(b.strides);
    expect(a.add(1).shape).toBe(a.shape);
  });

  it('is bounded: a stream of ever new shapes starts the table again rather than growing it', () => {
    const first = internDims([123_456_789]);
    for (let n = 0; n < 20_000; n++) internDims([n, 1_000_003]);
    const again = internDims([123_456_789]);
    // the table was dropped on the way: an equal, frozen, but new array
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(Object.isFrozen(again)).toBe(true);
  });
});
