import { describe, expect, it } from 'vitest';
import { runWorkers } from './harness.js';

describe('elastic membership (Note [Membership]): workers join a running group, leave it, die, and rejoin', () => {
  it('joiners get fresh ids from the store, members hear of every join and leave, calls to departed workers fail with PEER_DISCONNECTED, shutdown waits only for live members', async () => {
    const worker2Left = new Int32Array(new SharedArrayBuffer(4));
    const [r0, r1, r2, r3] = (await runWorkers({
      scenario: 'membership',
      worldSize: 2,
      ranks: [0, 1, 2, 3],
      extra: worker2Left,
      timeoutMs: 40000,
    })) as Record<string, unknown>[];
    expect(r2).toEqual({ id: 2, seen: ['worker0:0', 'worker1:1', 'worker2:2'], answers: ['worker0', 'worker1'] });
    // a rejoin under a dead worker's name gets a new id: ids are never reused
    expect(r3).toEqual({ firstId: 3, secondId: 4, answer: 'worker0' });
    for (const r of [r0, r1]) {
      expect(r!.joins).toEqual(['worker2:2', 'worker3:3', 'worker3:4']);
      expect(r!.leaves).toEqual(['worker2:2:left', 'worker3:3:dead', 'worker3:4:left']);
      expect(r!.after).toEqual(['worker0:0', 'worker1:1']);
      expect(r!.calledAfterLeave).toEqual({
        name: 'RpcError',
        code: 'PEER_DISCONNECTED',
        message: 'WorkerInfo(id=2, name=worker2) left the group (shutdown)',
      });
      expect(r!.calledAfterDeath).toEqual({
        name: 'RpcError',
        code: 'PEER_DISCONNECTED',
        message: 'lost the connection to WorkerInfo(id=3, name=worker3) (it stopped answering heartbeats for 600 ms)',
      });
      expect(r!.shutdownMs).toBeLessThan(5000);
    }
  }, 60000);
});
