import { describe, expect, it } from 'vitest';
import type { Dealer } from 'zeromq';
import { splitBatch } from '../messages/batch.js';
import { fromWire } from '../messages/textFrames.js';
import { SendQueue } from './sendQueue.js';

/** A socket whose send takes a turn of the event loop, recording what it was handed. */
function fakeSocket(): { socket: Dealer; sent: (Uint8Array | string)[][] } {
  const sent: (Uint8Array | string)[][] = [];
  let busy = false;
  const socket = {
    send: async (frames: (Uint8Array | string)[]) => {
      if (busy) throw new Error('Socket is busy writing');
      busy = true;
      await new Promise((r) => setImmediate(r));
      sent.push(frames);
      busy = false;
    },
  } as unknown as Dealer;
  return { socket, sent };
}

const msg = (n: number) => new Uint8Array(12).fill(n);

describe('SendQueue', () => {
  it('sends a lone message as itself, and messages queued while the socket is busy as one batch', async () => {
    const { socket, sent } = fakeSocket();
    const q = new SendQueue(socket);
    const first = q.send([msg(1)]);
    const rest = [2, 3, 4].map((n) => q.send([msg(n)]));
    await Promise.all([first, ...rest]);
    expect(sent.length).toBe(1);
    expect(splitBatch(sent[0] as Uint8Array[])).toEqual([[msg(1)], [msg(2)], [msg(3)], [msg(4)]]);
    await q.send([msg(5)]);
    expect(sent[1]).toEqual([msg(5)]);
  });

  it('never has two sends pending on the socket (zeromq.js refuses that)', async () => {
    const { socket, sent } = fakeSocket();
    const q = new SendQueue(socket);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 7 === 0 ? q.send([msg(i), new Uint8Array(4)]) : q.send([msg(i)]))),
    );
    expect(sent.flatMap((frames) => splitBatch(frames as Uint8Array[])).filter((m) => m.length === 1).length).toBe(
      50 - 8,
    );
  });

  it('keeps per-destination order: a message with tensor frames closes the open batch', async () => {
    const { socket, sent } = fakeSocket();
    const q = new SendQueue(socket);
    const id = new Uint8Array([65]);
    await Promise.all([q.send([msg(1)], id), q.send([msg(2), new Uint8Array(4)], id), q.send([msg(3)], id)]);
    const order = sent.map((frames) => splitBatch(frames.slice(1) as Uint8Array[]).map((m) => m[0]![0]));
    expect(order).toEqual([[1], [2], [3]]);
    expect(sent.every((frames) => frames[0] === id)).toBe(true);
  });

  it('batches per ROUTER identity', async () => {
    const { socket, sent } = fakeSocket();
    const q = new SendQueue(socket);
    const [a, b] = [new Uint8Array([65]), new Uint8Array([66])];
    await Promise.all([q.send([msg(1)], a), q.send([msg(2)], b), q.send([msg(3)], a), q.send([msg(4)], b)]);
    const byDest = sent.map((frames) => [
      frames[0]![0],
      splitBatch(frames.slice(1) as Uint8Array[]).map((m) => m[0]![0]),
    ]);
    expect(byDest).toEqual([
      [65, [1, 3]],
      [66, [2, 4]],
    ]);
  });

  it('hands a lone head of 129 bytes or more over as text, a batch and tensor frames as bytes (Note [Small frames travel as text])', async () => {
    const { socket, sent } = fakeSocket();
    const q = new SendQueue(socket);
    const head = new Uint8Array(300).map((_, i) => (i * 7) % 256);
    const tensorFrame = new Uint8Array(300).fill(0x74);
    await q.send([head, tensorFrame]);
    const [text, frame] = sent[0]!;
    expect(typeof text).toBe('string');
    expect([...fromWire(new Uint8Array(Buffer.from(text as string, 'utf8')))]).toEqual([...head]);
    expect(frame).toBe(tensorFrame);
    // sent in one turn: one batch, handed over as bytes
    await Promise.all([q.send([head]), q.send([head]), q.send([head])]);
    expect(sent.length).toBe(2);
    expect(sent[1]![0]).toBeInstanceOf(Uint8Array);
    expect(splitBatch(sent[1] as Uint8Array[])).toEqual([[head], [head], [head]]);
  });
});
