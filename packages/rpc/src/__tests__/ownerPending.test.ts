import { describe, expect, it } from 'vitest';
import { runWorkers } from './harness.js';

describe('an owner never runs a function on an RRef whose value is still pending (PyTorch OwnerRRef::getValue)', () => {
  for (const batchMessages of [true, false]) {
    it(`remote() then at once a call taking the RRef: the owner waits for the value (batching ${batchMessages ? 'on' : 'off'})`, async () => {
      const [r0, r1] = (await runWorkers({
        scenario: 'ownerPending',
        worldSize: 2,
        extra: { batchMessages },
        timeoutMs: 60000,
      })) as Record<string, unknown>[];
      expect(r1).toBe('served');
      expect(r0).toMatchObject({ asArgument: 7, nested: 3, viaProxy: 6, selfAsArgument: 3, wrong: 0 });
      expect(r0!.creationError).toMatchObject({
        name: 'TypeError',
        code: 'REMOTE',
        message: expect.stringContaining('creation failed'),
      });
      expect(r0!.localTooEarly).toMatchObject({
        code: 'RREF',
        message: expect.stringContaining('is still being created: await rref.getFuture() or rref.toHere() first'),
      });
    }, 90000);
  }
});
