import { describe, expect, it } from 'vitest';
import { runWorkers } from './harness.js';

describe('RRefs (PyTorch protocol, 3 worker threads)', () => {
  it('remote, toHere, sharing between users, proxies, release and owner cleanup', async () => {
    const [r0] = (await runWorkers({ scenario: 'rrefs', worldSize: 3 })) as Record<string, unknown>[];
    expect(r0).toMatchObject({
      isOwner: false,
      owner: 'worker1',
      toHere: [1, 1, 1],
      confirmed: true,
      str: true,
      shared: 3,
      chain: 3,
      local: [true, 40, 40, 90],
      backToOwner: [true, 'tensor([1., 1., 1.])'],
      proxySync: 7,
      proxyAsync: 10,
      proxyRemote: 20,
      creationError: 'On WorkerInfo(id=1, name=worker1):\ncreation failed',
      afterRelease: expect.stringContaining('Cannot call to_here() on it after deletion.'),
    });
    expect(r0!.localValueOnUser).toBe(
      "RRef.localValue() can't be called on a user: can't call localValue() on user WorkerInfo(id=0, name=worker0). Call it on owner WorkerInfo(id=1, name=worker1)",
    );
    expect(r0!.missingAttr).toContain("'Counter' object has no attribute 'nope'");
    // every user released: the owner holds nothing
    expect(r0!.ownerDebug).toMatchObject({ numOwnerRRefs: 0, numPendingUsers: 0, numPendingChildren: 0 });
    expect(r0!.selfDebug).toMatchObject({ numOwnerRRefs: 0, numPendingUsers: 0, numPendingChildren: 0 });
  }, 60000);
});
