import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines } from './deadlines.js';

// The clock is fake (timers and performance.now): with real timers a loaded machine resumed the
// first sleep(25) of the ordering spec past 30 ms, so call 5 (opened then, 10 ms) was due after
// call 1 (40 ms from the start) and expired after it, [2, 4, 1, 5] (7 of 25 runs at load 12).
// Deadlines' order is a matter of the deadlines it was given, not of how late the test resumed.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});
const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);

/** Deadlines over a set of pending ids, recording what expired and when. */
function harness() {
  const pending = new Set<number>();
  const expired: [number, number][] = [];
  const t0 = performance.now();
  const d = new Deadlines(
    (id) => pending.has(id),
    (id, ms) => {
      pending.delete(id);
      expired.push([id, ms]);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(ms - 1);
    },
  );
  const open = (id: number, ms: number) => {
    pending.add(id);
    d.add(id, ms);
  };
  return { pending, expired, open, d };
}

describe('Deadlines (Note [One timer per timeout])', () => {
  it('expires pending calls after their own timeout, each once, in deadline order across timeout values', async () => {
    const { pending, expired, open } = harness();
    open(1, 40);
    open(2, 10);
    open(3, 40);
    open(4, 10);
    pending.delete(3);
    await sleep(25);
    expect(expired).toEqual([
      [2, 10],
      [4, 10],
    ]);
    open(5, 10);
    await sleep(40);
    expect(expired.map(([id]) => id)).toEqual([2, 4, 5, 1]);
  });

  it('a settled head does not hold the calls behind it back', async () => {
    const { pending, expired, open } = harness();
    open(1, 15);
    pending.delete(1);
    open(2, 15);
    await sleep(30);
    expect(expired).toEqual([[2, 15]]);
  });

  it('keeps memory proportional to the pending calls when a slow call sits at the head', () => {
    const { pending, open, d } = harness();
    open(0, 60_000);
    for (let id = 1; id <= 100_000; id++) {
      open(id, 60_000);
      pending.delete(id);
    }
    const queue = (d as unknown as { queues: Map<number, { ids: number[]; head: number }> }).queues.get(60_000)!;
    expect(queue.ids.length - queue.head).toBeLessThanOrEqual(2048);
    expect(queue.ids).toContain(0);
  });
});
