import { describe, expect, it } from 'vitest';
import { receiveEach, type ReceivingSocket } from './receiveEach.js';

/** A socket whose receives are answered by hand: `deliver` resolves the pending one, `fail` rejects it. */
function fakeSocket() {
  const waiting: { resolve: (f: Buffer[]) => void; reject: (e: unknown) => void }[] = [];
  let receives = 0;
  const socket: ReceivingSocket & { closed: boolean } = {
    closed: false,
    receive: () => {
      receives++;
      return new Promise<Buffer[]>((resolve, reject) => waiting.push({ resolve, reject }));
    },
  };
  const turn = () => new Promise((r) => setImmediate(r));
  return {
    socket,
    receives: () => receives,
    deliver: async (text: string) => {
      await turn();
      waiting.shift()!.resolve([Buffer.from(text)]);
      await turn();
    },
    fail: async (e: unknown, close = false) => {
      await turn();
      if (close) socket.closed = true;
      waiting.shift()!.reject(e);
      await turn();
    },
  };
}

describe('receiveEach (Note [Receive loops hold no message])', () => {
  it('hands every message to onMessage in order, and ends once the socket is closed (EAGAIN)', async () => {
    const s = fakeSocket();
    const seen: string[] = [];
    const loop = receiveEach(s.socket, (frames) => void seen.push(frames[0]!.toString()));
    await s.deliver('a');
    await s.deliver('b');
    await s.fail(Object.assign(new Error('closed'), { code: 'EAGAIN' }), true);
    await expect(loop).resolves.toBeUndefined();
    expect(seen).toEqual(['a', 'b']);
  });

  it('does not receive the next message before the promise onMessage returned settles', async () => {
    const s = fakeSocket();
    let release!: () => void;
    const loop = receiveEach(s.socket, () => new Promise<void>((r) => (release = r)));
    await s.deliver('a');
    expect(s.receives()).toBe(1);
    release();
    await new Promise((r) => setImmediate(r));
    expect(s.receives()).toBe(2);
    await s.fail(Object.assign(new Error('closed'), { code: 'EAGAIN' }), true);
    await loop;
  });

  it('rejects with any other receive error, and with an error onMessage throws', async () => {
    const s = fakeSocket();
    const failed = expect(receiveEach(s.socket, () => {})).rejects.toThrow('boom');
    await s.fail(Object.assign(new Error('boom'), { code: 'EFSM' }));
    await failed;

    const t = fakeSocket();
    const thrown = expect(
      receiveEach(t.socket, () => {
        throw new Error('bad message');
      }),
    ).rejects.toThrow('bad message');
    await t.deliver('x');
    await thrown;
  });

  it('does not start when the socket is already closed', async () => {
    const s = fakeSocket();
    s.socket.closed = true;
    await receiveEach(s.socket, () => {});
    expect(s.receives()).toBe(0);
  });
});
