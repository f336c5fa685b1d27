import { describe, expect, it } from 'vitest';
import { runRanks } from './ranks.js';

describe('faults', () => {
  it.each([
    ['SIGKILLed (dies)', 'a collective', 'SIGKILL'],
    ['SIGSTOPped (hangs, its sockets open)', 'a collective', 'SIGSTOP'],
    ['SIGKILLed (dies)', 'a DDP backward pass', 'SIGKILL'],
    ['SIGKILLed (dies)', 'a DDP backward pass with gradients as bucket views', 'SIGKILL'],
  ] as const)(
    'a rank %s mid-%s: every other rank fails with PEER_GONE within the heartbeat window, never hangs',
    async (_, what, signal) => {
      // a stopped rank never exits: runRanks SIGKILLs it once the others are done
      const extra = {
        signal,
        during: what === 'a collective' ? 'allReduce' : 'ddpBackward',
        gradientAsBucketView: what.endsWith('bucket views'),
      };
      const runs = await runRanks('dies', 3, { timeoutMs: 45_000, hangs: signal === 'SIGSTOP' ? 2 : undefined, extra });
      expect(runs[2]!.signal).toBe('SIGKILL');
      for (const r of runs.slice(0, 2)) {
        expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 0 });
        const out = r.result as { error: unknown; failedAfterMs: number; later: unknown };
        expect(out.error).toMatchObject({
          name: 'DistributedError',
          code: 'PEER_GONE',
          message: expect.stringContaining('rank2'),
        });
        // 3 heartbeats of 1 s (rpc's default; Note [Peer liveness]), checked every heartbeat, plus slack for a loaded machine
        expect(out.failedAfterMs).toBeLessThan(6000);
        // the group is broken: a later collective fails at once with the same error
        expect(out.later).toMatchObject({ code: 'PEER_GONE' });
      }
    },
    60_000,
  );
});
