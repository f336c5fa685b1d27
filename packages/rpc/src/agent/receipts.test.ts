import { afterEach, describe, expect, it, vi } from 'vitest';
import { RECEIPT_DELAY_MS, Receipts } from './receipts.js';
import type { Listener } from './sockets.js';

const via = {} as Listener;
const identity = new Uint8Array([1]);

describe('Receipts (Note [One-way messages])', () => {
  afterEach(() => void vi.useRealTimers());

  it('batches the receipts of a burst into one NOTIFY_RECEIVED, RECEIPT_DELAY_MS later', () => {
    vi.useFakeTimers();
    const sent: number[][] = [];
    const r = new Receipts((ids) => void sent.push(ids));
    for (const id of [4, 5, 6]) r.owe(id, false, via, identity);
    vi.advanceTimersByTime(RECEIPT_DELAY_MS - 1);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([[4, 5, 6]]);
  });

  it('a NOTIFY that asks to confirm sends every owed receipt at the end of the turn, to where it came from', async () => {
    const sent: [number[], Listener, Uint8Array][] = [];
    const r = new Receipts((ids, v, who) => void sent.push([ids, v, who]));
    r.owe(1, false, via, identity);
    r.owe(2, true, via, identity);
    r.owe(3, false, via, identity);
    expect(sent).toEqual([]);
    await Promise.resolve();
    expect(sent).toEqual([[[1, 2, 3], via, identity]]);
  });

  it('stop() cancels what is owed until the next owe; flush() with nothing owed sends nothing', () => {
    vi.useFakeTimers();
    const sent: number[][] = [];
    const r = new Receipts((ids) => void sent.push(ids));
    r.flush();
    r.owe(7, false, via, identity);
    r.stop();
    vi.advanceTimersByTime(10 * RECEIPT_DELAY_MS);
    expect(sent).toEqual([]);
    r.owe(8, false, via, identity);
    r.flush();
    expect(sent).toEqual([[7, 8]]);
  });
});
