import { curveKeyPair } from 'zeromq';
import { describe, expect, it } from 'vitest';
import { runWorkers } from './harness.js';
import type { AttacksExtra } from './scenarios/attacks.js';

describe('authenticated membership (Note [Authenticated membership])', () => {
  it('impersonation, a forged JOIN_REQ or LEAVE_REQ and a stolen key under another name get nothing; members go on', async () => {
    const extra: AttacksExtra = { secret: 'spec secret', stolen: curveKeyPair() };
    const [attacker, victim, other] = (await runWorkers({
      scenario: 'attacks',
      worldSize: 3,
      extra,
      timeoutMs: 40_000,
    })) as Record<string, unknown>[];
    expect(attacker!.answered).toEqual({
      stranger: false,
      asMember: false,
      forgedJoin: false,
      forgedLeave: false,
      stolenKeyAsOther: false,
      stolenKeyLeave: false,
    });
    expect(attacker!.stolenKeyJoin).toContain('belongs to worker2');
    // worker1 served its two legitimate calls only (worker0's, then the attacks-over round trip is not 'secret')
    expect(attacker!.servedOnWorker1).toBe(1);
    expect(attacker!.membersOnWorker1).toEqual(['worker0', 'worker1', 'worker2']);
    expect(attacker!.refusedOnWorker1).toBeGreaterThanOrEqual(4);
    for (const r of [attacker!, victim!, other!]) {
      expect(r.legit).toBe(1);
      expect(r.shutdownMs).toBeLessThan(3000);
    }
  }, 60_000);

  it("a worker whose secret differs from rank 0's gets AUTH naming where each side took its secret", async () => {
    const [, rank1] = (await runWorkers({
      scenario: 'secretMismatch',
      worldSize: 2,
      extra: { secrets: ['one', 'two'] },
      timeoutMs: 20_000,
    })) as { code: string; message: string }[];
    expect(rank1!.code).toBe('AUTH');
    expect(rank1!.message).toContain('the group secrets differ');
    expect(rank1!.message).toContain('this worker took its secret from the secret option of initRpc');
    expect(rank1!.message).toContain('rank 0 took its from the secret option of initRpc');
  }, 30_000);

  it('a worker that runs insecure cannot join a secure group, and says why', async () => {
    const [, rank1] = (await runWorkers({
      scenario: 'secretMismatch',
      worldSize: 2,
      extra: { secrets: ['one', null] },
      timeoutMs: 20_000,
    })) as { code: string; message: string }[];
    expect(rank1).toMatchObject({ code: 'AUTH' });
    expect(rank1!.message).toContain('requires the group secret');
  }, 30_000);
});

describe('a worker that was itself paused (Note [Peer liveness])', () => {
  it('hears from its peers that they dropped it, and its error says it was paused, not that they stopped answering', async () => {
    const [, paused] = (await runWorkers({ scenario: 'paused', worldSize: 2, timeoutMs: 20_000 })) as {
      error: { code: string; message: string };
      ms: number;
    }[];
    expect(paused!.error.code).toBe('PEER_DISCONNECTED');
    expect(paused!.error.message).toMatch(/worker0.* dropped this worker from the group/);
    expect(paused!.error.message).toMatch(/this worker was paused for 1\.\d s/);
    expect(paused!.error.message).not.toContain('stopped answering');
    expect(paused!.ms).toBeLessThan(2000);
  }, 30_000);
});
