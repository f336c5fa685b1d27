import { describe, expect, it } from 'vitest';
import { Liveness } from './liveness.js';

/** Blocks this thread's event loop, as a long synchronous computation does. */
function block(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('peer liveness (Note [Peer liveness])', () => {
  it('a peer silent for the window is dead; one heard in time is pinged, not dead', async () => {
    const dead: string[] = [];
    const pinged: string[] = [];
    const live = new Liveness(40, 3, {
      ping: async (n) => void pinged.push(n),
      dead: (n) => void dead.push(n),
    });
    live.track('quiet');
    live.track('chatty');
    const talk = setInterval(() => live.heard('chatty'), 10);
    await new Promise((r) => setTimeout(r, 400));
    clearInterval(talk);
    live.stop();
    expect(dead).toEqual(['quiet']);
    expect(pinged).toContain('quiet');
    expect(pinged).not.toContain('chatty');
  });

  it('a worker whose own loop was blocked past the window does not take its peers for dead before reading what they sent', async () => {
    const dead: string[] = [];
    const live = new Liveness(40, 3, { ping: async () => {}, dead: (n) => void dead.push(n) });
    live.track('peer');
    block(500); // the peer's messages arrive meanwhile, unread
    // after the block, timers run before I/O: the message is read in a later phase
    await new Promise<void>((r) =>
      setImmediate(() => {
        live.heard('peer');
        r();
      }),
    );
    await new Promise((r) => setTimeout(r, 60));
    live.stop();
    expect(dead).toEqual([]);
  });
});
