import { describe, expect, it } from 'vitest';
import { runWorkers } from './__tests__/harness.js';

/** Each case's distributed gradients (or parameters after DistributedOptimizer) equal the local computation's, value for value. */
function expectSameGradients(r: Record<string, unknown>): void {
  for (const name of [
    'roundTrips',
    'nested',
    'multipleOutputs',
    'mixedRequiresGrad',
    'unusedOutput',
    'selfCall',
    'hooks',
    'distOptim',
    'rrefUserCtx',
  ]) {
    const c = r[name] as { distributed: unknown; local: unknown };
    expect(c.distributed, name).toEqual(c.local);
    expect((c.local as unknown[]).length, name).toBeGreaterThan(0);
  }
  for (const [name, c] of Object.entries(
    r.everyOptimizer as Record<string, { distributed: number[]; local: number[] }>,
  )) {
    expect(c.distributed, name).toEqual(c.local);
    expect(c.distributed, name).toHaveLength(9);
  }
  expect(Object.keys(r.everyOptimizer as object)).toEqual(['Adam', 'AdamW', 'RMSprop', 'Adagrad']);
  // mixed requiresGrad: the tensor that does not require grad gets no gradient at all
  expect((r.mixedRequiresGrad as { distributed: unknown[] }).distributed).toHaveLength(1);
}

describe('distributed autograd (real ZeroMQ, worker threads)', () => {
  it("the design note's worked example gives {t1: t4, t2: t4, t4: t1 + t2} on worker0 and nothing on worker1", async () => {
    const [r0, r1] = (await runWorkers({ scenario: 'worked', worldSize: 2 })) as Record<string, unknown>[];
    expect(r0).toMatchObject({
      sendFunctions: 1,
      recvFunctions: 1,
      t3GradFn: 'torch::distributed::autograd::RecvRpcBackward',
      knownWorkers: [1],
      idHighBits: 0,
      numGrads: 3,
      gradsOfLeaves: [null, null], // .grad is never touched by a distributed backward
      worker1Grads: 0,
      contextsAfter: 0,
    });
    for (const leaf of ['t1', 't2', 't4', 'accumulated']) {
      const [got, expected] = r0![leaf] as [number[], number[]];
      expect(got, leaf).toEqual(expected);
      expect(got, leaf).toHaveLength(9);
    }
    expect(r1).toEqual({ contextsAfter: 0 });
  }, 60000);
});

describe('distributed gradients equal a local computation', () => {
  it('round trips, nested RPC through 3 workers, multiple outputs, mixed requiresGrad, unused outputs, hooks, RRef chains, errors', async () => {
    const results = (await runWorkers({
      scenario: 'equivalence',
      worldSize: 3,
      extra: 'equivalence',
      timeoutMs: 60000,
    })) as Record<string, unknown>[];
    const r0 = results[0]!;
    expectSameGradients(r0);
    expect(r0).toMatchObject({
      nestedContext: 'Already have an autograd context id for this thread.',
      rrefUserNoCtx: "User RRefs require 'dist_autograd_ctx_id' to be specified",
      rrefOwnerLocal: [2, 2],
      rrefOwnerTwice: [4, 4],
      rrefNotTensor: 'RRef should contain a tensor for .backward()',
    });
    expect(r0.error).toMatch(/Error on Node 1: Simulate error on backward pass/);
    expect(r0.rootErrors).toBe('requires_grad not set on root 0');
    expect(r0.nonScalar).toContain('is not a scalar, all roots need to be scalar');
    for (const r of results) expect(r).toMatchObject({ contextsAfter: 0, passesAfter: 0 });
  }, 90000);

  it('stress: 20 concurrent contexts from each of 2 trainers, 100 passes each, all correct, no context left', async () => {
    const results = (await runWorkers({
      scenario: 'equivalence',
      worldSize: 3,
      extra: 'stress',
      timeoutMs: 90000,
    })) as Record<string, unknown>[];
    expect(results[1]).toMatchObject({ wrong: 0, contextsAfter: 0 });
    expect(results[2]).toMatchObject({ wrong: 0, contextsAfter: 0 });
    expect(results[0]).toMatchObject({ contextsAfter: 0, passesAfter: 0 });
  }, 120000);

  it('contexts whose creator vanished expire instead of leaking', async () => {
    const results = (await runWorkers({ scenario: 'equivalence', worldSize: 2, extra: 'expiry' })) as Record<
      string,
      unknown
    >[];
    expect(results[1]).toMatchObject({ before: 1, after: 0, expiredAfterTimeout: true });
  }, 30000);
});

describe('a worker that dies (Note [A worker that left], Note [Reaching a worker])', () => {
  it('survivors drop its contexts at once, a backward that needs it fails naming it, the rest of the context still works, cleanup never waits on it', async () => {
    const [r0, r1, r2] = (await runWorkers({ scenario: 'workerLeft', worldSize: 3, timeoutMs: 40000 })) as Record<
      string,
      unknown
    >[];
    expect(r2).toBe('died');
    // worker2's context on worker1 went when worker2 died, long before the 40 s expiry of Note [Context expiry]
    expect(r1).toEqual({ before: null, after: 'NO_CONTEXT' });
    expect(r0).toMatchObject({
      backward: {
        name: 'DistAutogradError',
        code: 'BACKWARD',
        message:
          'Error on Node 0: lost the connection to WorkerInfo(id=2, name=worker2) (it stopped answering heartbeats for 600 ms)',
      },
      gradOfX: [2, 2],
      rrefBackward: {
        name: 'RpcError',
        code: 'PEER_DISCONNECTED',
        message: 'lost the connection to WorkerInfo(id=2, name=worker2) (it stopped answering heartbeats for 600 ms)',
      },
      worker1Contexts: 1,
      // DistributedOptimizer's error keeps the RpcError underneath as its cause
      optimizerStep: { code: 'OPTIMIZER', causeCode: 'PEER_DISCONNECTED' },
      contextsAfter: 0,
    });
    expect(r0!.shutdownMs).toBeLessThan(3000);
  }, 60000);
});

describe('a distributed round costs the forward call and the gradient propagation (Note [Firing sets], Note [Gradients ride on the answer], Note [Releases ride on the next message])', () => {
  it('per round each side sends 2 messages: the forward call or its answer, the gradients or their answer (which carries the gradients back); the context release rides on the next forward call; a mark round would add 2 more', async () => {
    const [r0, r1] = (await runWorkers({ scenario: 'rounds', worldSize: 2 })) as Record<string, unknown>[];
    // caller: FORWARD_AUTOGRAD_REQ (with the previous round's release), BACKWARD_AUTOGRAD_REQ (gradients)
    // callee: FORWARD_AUTOGRAD_RESP, BACKWARD_AUTOGRAD_RESP (with the gradients for the caller's send function)
    expect(r0).toEqual({
      firingSets: { caller: 2, callee: 2, gradsRight: true },
      markRounds: { caller: 4, callee: 4, gradsRight: true },
      // right after 5 rounds the callee holds at most the last one's context, whose release
      // waits 10 ms for a carrier; with none coming it leaves on its own
      waitingRight: true,
      releasedAlone: true,
    });
    // a release still waiting when the caller shuts down is sent before its shutdown settles
    expect(r1).toEqual({ contextsAtShutdown: 0 });
  }, 60000);

  it('every case of the equivalence spec gives the same gradients when reachability comes from a mark round instead (the fallback for unknown firing sets)', async () => {
    const results = (await runWorkers({
      scenario: 'equivalence',
      worldSize: 3,
      extra: 'equivalence-marks',
      timeoutMs: 60000,
    })) as Record<string, unknown>[];
    expectSameGradients(results[0]!);
    for (const r of results) expect(r).toMatchObject({ contextsAfter: 0, passesAfter: 0 });
  }, 90000);
});
