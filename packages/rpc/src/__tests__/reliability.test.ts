import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { curveKeyPair } from 'zeromq';
import { runWorkers } from './harness.js';

describe('reliability', () => {
  it('1000 concurrent rpcAsync from each of 3 workers to each other: all correct, none lost or duplicated', async () => {
    const results = (await runWorkers({ scenario: 'stress', worldSize: 3, timeoutMs: 60000 })) as {
      total: number;
      wrong: number;
      unique: number;
      peak: number;
    }[];
    for (const r of results) {
      expect(r).toMatchObject({ total: 2000, wrong: 0, unique: 2000 });
      expect(r.peak).toBeLessThanOrEqual(4); // numWorkerThreads
      expect(r.peak).toBeGreaterThan(1);
    }
  }, 90000);

  it('graceful shutdown completes with uneven workloads', async () => {
    expect(await runWorkers({ scenario: 'stress', worldSize: 3, extra: 'uneven' })).toEqual(['done', 'done', 'done']);
  }, 60000);

  it('graceful shutdown is bounded by its timeout when a worker never joins the barrier; every socket closes anyway', async () => {
    const [r0] = (await runWorkers({ scenario: 'shutdownTimeout', worldSize: 2 })) as Record<string, unknown>[];
    expect(r0!.error).toEqual({
      name: 'RpcError',
      code: 'TIMEOUT',
      message: 'shutdown timed out after 500 ms waiting for workers worker1',
    });
    expect(r0!.tookMs).toBeLessThan(2000);
    expect(r0!.afterwards).toMatchObject({ code: 'NOT_INITIALIZED' });
  }, 30000);

  it('shutdown({ timeout: 0 }) has no limit: it waits for a worker that joins the barrier late', async () => {
    const [r0, r1] = (await runWorkers({ scenario: 'shutdownTimeout', worldSize: 2, extra: 'unlimited' })) as {
      error: unknown;
      waitedMs: number;
    }[];
    expect([r0!.error, r1!.error]).toEqual([null, null]);
    expect(r0!.waitedMs).toBeGreaterThan(1500);
  }, 30000);

  it('a dead peer fails pending and new calls within the timeout; other peers keep working', async () => {
    const [r0] = (await runWorkers({ scenario: 'reliability', worldSize: 3 })) as Record<string, unknown>[];
    expect(r0).toEqual({
      pendingCode: 'PEER_DISCONNECTED',
      newCall: 'PEER_DISCONNECTED',
      within: true,
      others: 'pong',
    });
  }, 60000);

  it('a hung peer process (SIGSTOP: TCP stays up, heartbeats stop) fails pending and new calls; then SIGKILL; others keep working', async () => {
    const bootstrap = fileURLToPath(new URL('./fixtures/processBootstrap.mjs', import.meta.url));
    const [r0] = (await runWorkers({
      scenario: 'hungPeer',
      worldSize: 3,
      ranks: [0, 1],
      extra: bootstrap,
      timeoutMs: 45000,
    })) as Record<string, unknown>[];
    expect(r0).toMatchObject({ before: 'pong', others: 'pong' });
    expect(r0!.pendingError).toMatchObject({
      code: 'PEER_DISCONNECTED',
      message: 'lost the connection to WorkerInfo(id=2, name=worker2) (it stopped answering heartbeats for 600 ms)',
    });
    // 3 heartbeat intervals of silence (600 ms; Note [Peer liveness]), checked every interval
    expect(r0!.detectedMs).toBeLessThan(3000);
    expect(r0!.newCall).toMatchObject({ code: 'PEER_DISCONNECTED' });
    expect(r0!.afterKill).toMatchObject({ code: 'PEER_DISCONNECTED' });
  }, 60000);

  it('malformed, unknown and oversized frames are answered or dropped, and the worker keeps serving', async () => {
    const [r] = (await runWorkers({ scenario: 'protocol', worldSize: 1 })) as {
      answers: unknown[];
      errors: number;
      stillServing: string;
      tooBig: unknown;
      answerTooBig: unknown;
    }[];
    expect(r!.tooBig).toMatchObject({
      code: 'MESSAGE_TOO_LARGE',
      message: expect.stringMatching(
        /^request frame of 1024\d\d bytes exceeds the limit of WorkerInfo\(id=0, name=worker0\) \(maxMessageBytes 65536\)$/,
      ),
    });
    expect(r!.answerTooBig).toMatchObject({
      code: 'REMOTE',
      message: expect.stringContaining('response frame of 1024'),
    });
    expect(r!.stillServing).toBe('pong');
    expect(r!.answers[0]).toBe('no answer');
    expect(r!.answers[1]).toMatchObject({
      header: { type: 0x237, id: 7 },
      payload: { message: expect.stringContaining('unknown message type 2457') },
    });
    // a peer outside the group is answered with an error and its payload is never decoded
    expect(r!.answers[2]).toMatchObject({
      header: { type: 0x237, id: 8 },
      payload: { message: expect.stringContaining("request from an unknown worker 'intruder'") },
    });
    expect(r!.answers[3]).toMatchObject({ header: { type: 0x237, id: 9 } });
    expect(r!.answers[4]).toBe('no answer');
    expect(r!.answers[5]).toMatchObject({
      header: { type: 0x237, id: 11 },
      payload: { message: expect.stringContaining('SCRIPT_RET is not a request') },
    });
    // text that is not UTF-8 decodes to bytes that are no message: dropped, like any garbage
    expect(r!.answers[6]).toBe('no answer');
    // a call that arrives as text is read as the call it carries (answered as any from the intruder)
    expect(r!.answers[7]).toMatchObject({
      header: { type: 0x237, id: 12 },
      payload: { message: expect.stringContaining("request from an unknown worker 'intruder'") },
    });
    expect(r!.errors).toBeGreaterThan(0);
  }, 30000);

  it('with CURVE only members talk: a foreign key, no CURVE, or a stolen public key get nothing served', async () => {
    const keys = [curveKeyPair(), curveKeyPair()];
    const [r0, r1] = (await runWorkers({
      scenario: 'curve',
      worldSize: 2,
      extra: { keys, intruder: curveKeyPair() },
    })) as Record<string, unknown>[];
    expect(r0).toEqual({ legit: 1, foreignKey: false, plaintext: false, stolenPublicKey: false, servedOnWorker1: 1 });
    expect(r1).toEqual({ legit: 1 });
  }, 30000);
});
