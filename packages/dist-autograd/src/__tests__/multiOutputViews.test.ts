import { describe, expect, it } from 'vitest';
import { runWorkers } from './harness.js';

describe('pieces of split and unbind sent over RPC (real ZeroMQ, worker threads; See Note [Multi-output views])', () => {
  it('their gradients come back into the one SplitBackward0 / UnbindBackward0 node, zeros for the pieces that got none', async () => {
    const [r0, r1] = (await runWorkers({ scenario: 'multiOutputViews', worldSize: 2 })) as Record<string, unknown>[];
    expect(r0).toEqual({
      gradFns: ['SplitBackward0', 'UnbindBackward0'],
      oneNodePerCall: true,
      // x[0..1] from the local piece, x[2..3] times 3 and x[4] times 6 from worker1
      distributed: [1, 1, 3, 3, 6],
      local: [1, 1, 3, 3, 6],
      leafGrad: null, // a distributed backward leaves .grad alone
      contextsAfter: 0,
    });
    expect(r1).toEqual({ contextsAfter: 0 });
  }, 60000);
});
