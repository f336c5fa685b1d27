import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type HeapBlock, HeapBlocks } from './heapBlocks.js';

const MIN = 1024;

/** A heap over a pretend memory: what take() cannot serve is carved at the break, `gap` bytes (a staging region) above the last carve. */
function pretendHeap() {
  const heap = new HeapBlocks(MIN);
  let brk = 0;
  const carved: number[] = [];
  return {
    heap,
    carved,
    alloc(size: number, gap = 0): number {
      const ptr = heap.take(size);
      if (ptr !== null) return ptr;
      brk += gap;
      heap.add(brk, size);
      carved.push(size);
      brk += size;
      return brk - size;
    },
  };
}

/** Every invariant of Note [Coalescing heap blocks], and that each live allocation sits in a taken block of its own. */
function expectWellFormed(heap: HeapBlocks, carved: number[], live: Map<number, number>): void {
  const blocks = heap.blocks();
  const sum = (bs: HeapBlock[]) => bs.reduce((s, b) => s + b.size, 0);
  for (let i = 1; i < blocks.length; i++) {
    const [a, b] = [blocks[i - 1]!, blocks[i]!];
    expect(a.start + a.size).toBeLessThanOrEqual(b.start); // no overlap
    if (a.start + a.size === b.start) expect(a.free && b.free).toBe(false); // coalesced
  }
  expect(sum(blocks)).toBe(heap.carvedBytes);
  expect(heap.carvedBytes).toBe(carved.reduce((s, n) => s + n, 0));
  expect(sum(blocks.filter((b) => b.free))).toBe(heap.freeBytes);
  expect(blocks.every((b) => b.size >= MIN)).toBe(true);
  const taken = blocks.filter((b) => !b.free);
  expect(taken.map((b) => b.start)).toEqual([...live.keys()].sort((x, y) => x - y));
  for (const b of taken) {
    const asked = live.get(b.start)!;
    expect(b.size).toBeGreaterThanOrEqual(asked);
    expect(b.size - asked).toBeLessThan(MIN);
  }
}

const op = fc.oneof(
  fc.record({ take: fc.integer({ min: MIN / 64, max: (16 * MIN) / 64 }), gap: fc.constantFrom(0, 0, 0, 192) }),
  fc.record({ release: fc.nat() }),
);

describe('the blocks of the wasm heap (Note [Coalescing heap blocks])', () => {
  it('any sequence of takes and releases keeps the blocks non-overlapping, coalesced and fully accounted', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const { heap, carved, alloc } = pretendHeap();
        const live = new Map<number, number>();
        for (const o of ops) {
          if ('take' in o) {
            const size = o.take * 64;
            live.set(alloc(size, o.gap), size);
          } else if (live.size > 0) {
            const ptr = [...live.keys()][o.release % live.size]!;
            live.delete(ptr);
            heap.release(ptr);
          }
          expectWellFormed(heap, carved, live);
        }
        for (const ptr of live.keys()) heap.release(ptr);
        expectWellFormed(heap, carved, new Map());
      }),
    );
  });

  it('serves the best fit: the smallest free block that is big enough, the lowest of equals, and null when none is', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.integer({ min: MIN / 64, max: (32 * MIN) / 64 }), (ops, ask) => {
        const { heap, alloc } = pretendHeap();
        const live: number[] = [];
        for (const o of ops) {
          if ('take' in o) live.push(alloc(o.take * 64, o.gap));
          else if (live.length > 0) heap.release(live.splice(o.release % live.length, 1)[0]!);
        }
        const size = ask * 64;
        const fits = heap.blocks().filter((b) => b.free && b.size >= size);
        const best = fits.sort((a, b) => a.size - b.size || a.start - b.start)[0];
        expect(heap.take(size)).toBe(best?.start ?? null);
      }),
    );
  });

  it('a big block freed into pieces serves a big request again, without carving', () => {
    const { heap, carved, alloc } = pretendHeap();
    const big = alloc(16 * MIN);
    heap.release(big);
    const pieces = [0, 1, 2, 3].map(() => alloc(4 * MIN));
    expect(pieces).toEqual([0, 1, 2, 3].map((i) => big + 4 * MIN * i));
    // freed out of order: each piece merges with whichever neighbours are free already
    for (const i of [2, 0, 3, 1]) heap.release(pieces[i]!);
    expect(heap.blocks()).toEqual([{ start: big, size: 16 * MIN, free: true }]);
    expect(alloc(16 * MIN)).toBe(big);
    expect(carved).toEqual([16 * MIN]);
  });

  it('splits a block only when what remains could serve a request; else gives the whole block', () => {
    const { heap, alloc } = pretendHeap();
    heap.release(alloc(4 * MIN));
    expect(heap.take(3 * MIN)).toBe(0);
    expect(heap.blocks()).toEqual([
      { start: 0, size: 3 * MIN, free: false },
      { start: 3 * MIN, size: MIN, free: true },
    ]);
    heap.release(0);
    expect(heap.take(3 * MIN + 64)).toBe(0);
    expect(heap.blocks()).toEqual([{ start: 0, size: 4 * MIN, free: false }]);
  });

  it('regions carved one right after the other merge; regions with a staging region between them do not', () => {
    const { heap, alloc } = pretendHeap();
    const a = alloc(2 * MIN);
    const b = alloc(2 * MIN);
    const c = alloc(2 * MIN, 4096);
    for (const p of [a, b, c]) heap.release(p);
    expect(heap.blocks()).toEqual([
      { start: a, size: 4 * MIN, free: true },
      { start: c, size: 2 * MIN, free: true },
    ]);
    expect(c).toBe(4 * MIN + 4096);
  });
});
