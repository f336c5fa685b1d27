import { describe, expect, it } from 'vitest';
import { curveKeyPair } from 'zeromq';
import { runWorkers } from './harness.js';

describe('reliability', () => {
  it('1000 concurrent rpcAsync from each of 3 workers to each other: all correct, none lost or duplicated', async () => {
    const results = (await runWorkers({ scenario: 'stress', worldSize: 3, timeoutMs: 60000 })) as { total: number; wrong: number; unique: number; peak: number }[];
    for (const r of results) {
      expect(r).toMatchObject({ total: 2000, wrong: 0, unique: 2000 });
      expect(r.peak).toBeLessThanOrEqual(4); // numWorkerThreads
      expect(r.peak).toBeGreaterThan(1);
    }
  }, 90000);

  it('graceful shutdown completes with uneven workloads', async () => {
    expect(await runWorkers({ scenario: 'stress', worldSize: 3, extra: 'uneven' })).toEqual(['done', 'done', 'done']);
  }, 60000);

  it('a dead peer fails pending and new calls within the timeout; other peers keep working', async () => {
    const [r0] = (await runWorkers({ scenario: 'reliability', worldSize: 3 })) as Record<string, unknown>[];
    expect(r0).toEqual({ pendingCode: 'PEER_DISCONNECTED', newCall: 'PEER_DISCONNECTED', within: true, others: 'pong' });
  }, 60000);

  it('a hung peer process (SIGSTOP: TCP stays up, heartbeats stop) fails pending and new calls; then SIGKILL; others keep working', async () => {
    const [r0] = (await runWorkers({ scenario: 'hungPeer', worldSize: 3, ranks: [0, 1], timeoutMs: 30000 })) as Record<string, unknown>[];
    expect(r0).toMatchObject({ before: 'pong', others: 'pong' });
    expect(r0!.pendingError).toMatchObject({ code: 'PEER_DISCONNECTED', message: 'lost the connection to WorkerInfo(id=2, name=worker2) (it stopped answering heartbeats)' });
    // ZeroMQ drops the connection after 3 missed heartbeats (600 ms), the agent waits 3 more for a reconnect
    expect(r0!.detectedMs).toBeLessThan(3000);
    expect(r0!.newCall).toMatchObject({ code: 'PEER_DISCONNECTED' });
    expect(r0!.afterKill).toMatchObject({ code: 'PEER_DISCONNECTED' });
  }, 60000);

  it('malformed, unknown and oversized frames are answered or dropped, and the worker keeps serving', async () => {
    const [r] = (await runWorkers({ scenario: 'protocol', worldSize: 1 })) as { answers: unknown[]; errors: number; stillServing: string }[];
    expect(r!.stillServing).toBe('pong');
    expect(r!.answers[0]).toBe('no answer');
    expect(r!.answers[1]).toMatchObject({ header: { type: 0x237, id: 7 }, payload: { message: expect.stringContaining('unknown message type 2457') } });
    // a peer outside the group is answered with an error and its payload is never decoded
    expect(r!.answers[2]).toMatchObject({ header: { type: 0x237, id: 8 }, payload: { message: expect.stringContaining("request from an unknown worker 'intruder'") } });
    expect(r!.answers[3]).toMatchObject({ header: { type: 0x237, id: 9 } });
    expect(r!.answers[4]).toBe('no answer');
    expect(r!.errors).toBeGreaterThan(0);
  }, 30000);

  it('with CURVE, members talk and a peer without a member key gets nothing', async () => {
    const keys = [curveKeyPair(), curveKeyPair()];
    const results = (await runWorkers({ scenario: 'curve', worldSize: 2, extra: { keys, intruder: curveKeyPair() } })) as { legit: number; intruderGotAnswer: boolean }[];
    expect(results).toEqual([{ legit: 42, intruderGotAnswer: false }, { legit: 42, intruderGotAnswer: false }]);
  }, 30000);
});
