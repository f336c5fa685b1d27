import { describe, expect, it } from 'vitest';
import { runWorkers } from './harness.js';

describe('workers on one machine (Note [Same-machine peers over Unix sockets])', () => {
  it('talk over their Unix sockets (TCP with ipc: false); a process that does not sign as a member gets nothing there', async () => {
    const [w0, w1, w2] = (await runWorkers({ scenario: 'localTransport', worldSize: 3, timeoutMs: 40_000 })) as Record<
      string,
      unknown
    >[];
    expect(w0!.routes).toEqual({ 0: 'ipc', 1: 'ipc', 2: 'tcp' });
    expect(w1!.routes).toEqual({ 0: 'ipc', 1: 'ipc', 2: 'tcp' });
    expect(w2!.routes).toEqual({ 0: 'tcp', 1: 'tcp', 2: 'tcp' });
    expect([w0!.offers, w1!.offers, w2!.offers]).toEqual([true, true, false]);
    for (const w of [w0!, w1!, w2!]) expect(w.echoed).toBe(true);
    expect(w0!.socketDirMode).toBe('700');
    expect(w0!.answered).toEqual({ stranger: false, asMember: false });
    expect(w0!.refusedOnWorker1).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
