import { describe, expect, it } from 'vitest';
import { runWorkers } from './__tests__/harness.js';

describe('distributed autograd (real ZeroMQ, worker threads)', () => {
  it("the design note's worked example gives {t1: t4, t2: t4, t4: t1 + t2} on worker0 and nothing on worker1", async () => {
    const [r0, r1] = (await runWorkers({ scenario: 'worked', worldSize: 2 })) as Record<string, unknown>[];
    expect(r0).toEqual({
      sendFunctions: 1,
      recvFunctions: 1,
      t3GradFn: 'torch::distributed::autograd::RecvRpcBackward',
      knownWorkers: [1],
      idHighBits: 0,
      numGrads: 3,
      t1: true,
      t2: true,
      t4: true,
      gradUntouched: true,
      worker1Grads: 0,
      accumulated: true,
      contextsAfter: 0,
    });
    expect(r1).toEqual({ contextsAfter: 0 });
  }, 60000);
});
