import { describe, expect, it } from 'vitest';
import { tensor } from '../index.js';
import { InputBuffer } from './inputBuffer.js';
import { OwnedGrads } from './ownedGrads.js';

const values = (t: { toTypedArray(): ArrayLike<number> }) => Array.from(t.toTypedArray());

describe('InputBuffer (PyTorch input_buffer.cpp)', () => {
  it('adds a second gradient into the first in place when the engine owns it and nothing else holds it', () => {
    const owned = new OwnedGrads();
    const first = tensor([1, 2, 3]);
    owned.adoptSum(first); // an engine-made sum, in one slot
    const buf = new InputBuffer(1);
    buf.buffer[0] = first;
    buf.add(0, tensor([10, 20, 30]), owned);
    expect(buf.buffer[0]).toBe(first);
    expect(values(first)).toEqual([11, 22, 33]);
  });

  it('sums out of place when the gradient there is not the engine’s, another slot or a view holds it, or the shapes differ', () => {
    const cases: [string, (owned: OwnedGrads, first: ReturnType<typeof tensor>) => void, number[]][] = [
      ['not owned', () => {}, [1, 2, 3]],
      ['in two slots', (o, f) => (o.adoptSum(f), o.enter(f)), [1, 2, 3]],
      ['viewed', (o, f) => (o.adoptSum(f), f.reshape([3, 1])), [1, 2, 3]],
    ];
    for (const [what, setUp, kept] of cases) {
      const owned = new OwnedGrads();
      const first = tensor([1, 2, 3]);
      setUp(owned, first);
      const buf = new InputBuffer(1);
      buf.buffer[0] = first;
      buf.add(0, tensor([10, 20, 30]), owned);
      expect(buf.buffer[0], what).not.toBe(first);
      expect(values(buf.buffer[0]!), what).toEqual([11, 22, 33]);
      expect(values(first), what).toEqual(kept);
    }
    const owned = new OwnedGrads();
    const first = tensor([1, 2, 3]);
    owned.adoptSum(first);
    const buf = new InputBuffer(1);
    buf.buffer[0] = first;
    buf.add(0, tensor([[10, 20, 30]]), owned); // broadcasts to [1, 3]
    expect(buf.buffer[0]!.shape).toEqual([1, 3]);
  });
});
