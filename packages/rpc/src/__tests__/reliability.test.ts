import { describe, expect, it } from 'vitest';
import { curveKeyPair } from 'zeromq';
import { runWorkers } from './harness.js';

describe('init checks (PyTorch messages)', () => {
  it('rejects bad names, ranks, options and calls before init', async () => {
    const [r] = (await runWorkers({ scenario: 'init', worldSize: 1, extra: 'checks' })) as Record<string, { code: string; message: string }>[];
    expect(r!.badName!.message).toContain('Worker name must match');
    expect(r!.emptyName!.message).toBe('Worker name must be non-empty');
    expect(r!.longName!.message).toContain('shorter than 128');
    expect(r!.badRank!.code).toBe('INVALID_ARGUMENT');
    expect(r!.badOption!.message).toBe("unknown backend option 'bogus'");
    expect(r!.badInit!.message).toContain("initMethod must be 'tcp://host:port' or 'env://'");
    expect(r!.beforeInit).toEqual({ code: 'NOT_INITIALIZED', message: 'RPC has not been initialized. Call initRpc first.' });
  }, 30000);

  it('rejects duplicate names on every worker', async () => {
    const results = (await runWorkers({ scenario: 'init', worldSize: 2, extra: 'duplicate' })) as { duplicate: { message: string } }[];
    for (const r of results) expect(r.duplicate.message).toContain('RPC worker name same is not unique');
  }, 30000);

  it('validates device maps at init', async () => {
    const [r0] = (await runWorkers({ scenario: 'init', worldSize: 2, ranks: [0, 1], extra: 'deviceMaps' }).catch((e) => [String(e)])) as { duplicateTargets: { code: string; message: string } }[];
    expect(r0!.duplicateTargets).toMatchObject({ code: 'DEVICE_MAP', message: 'Node worker0 has duplicated target devices in its device map for worker1' });
  }, 30000);

  it('double init fails; re-init after shutdown works; default timeout is settable', async () => {
    const results = (await runWorkers({ scenario: 'init', worldSize: 2, extra: 'reinit' })) as Record<string, unknown>[];
    for (const r of results) {
      expect(r).toMatchObject({ first: 42, second: 10, timeout: 5, newTimeout: 7, double: { code: 'ALREADY_INITIALIZED', message: 'RPC is already initialized' } });
    }
  }, 30000);
});

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
