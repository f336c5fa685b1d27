import { beforeAll, describe, expect, it } from 'vitest';
import { runWorkers } from './harness.js';

const gid = (on: number, id: string) => `GloballyUniqueId(created_on=${on}, local_id=${id})`;

describe('RRefs between 3 worker threads (PyTorch protocol, rpc_test.py)', () => {
  let r0: Record<string, unknown>;
  beforeAll(async () => {
    const results = (await runWorkers({ scenario: 'rrefs', worldSize: 3, timeoutMs: 40000 })) as Record<
      string,
      unknown
    >[];
    r0 = results[0]!;
  }, 60000);

  it('remote() returns a user RRef at once; the callee owns the value (test_builtin_remote_ret, test_owner_equality)', () => {
    expect(r0.isOwner).toBe(false);
    expect(r0.owner).toEqual(['worker1', true]);
    expect(r0.toHere).toEqual([1, 1, 1]);
    expect(r0.confirmed).toBe(true);
  });

  it("prints like PyTorch and refuses localValue() on a user with PyTorch's message (test_rref_str, test_local_value_not_on_owner)", () => {
    expect(r0.str).toMatch(
      new RegExp(
        `^UserRRef\\(RRefId = ${gid(0, '\\d+').replace(/[()]/g, '\\$&')}, ForkId = ${gid(0, '\\d+').replace(/[()]/g, '\\$&')}\\)$`,
      ),
    );
    expect(r0.localValueOnUser).toMatchObject({
      code: 'RREF',
      message:
        "RRef.localValue() can't be called on a user: can't call localValue() on user WorkerInfo(id=0, name=worker0). Call it on owner WorkerInfo(id=1, name=worker1)",
    });
  });

  it('user -> user sharing: fork request, child accept, confirmation by the owner (test_py_rref_args_user_share, test_user_rrefs_confirmed)', () => {
    expect(r0.shared).toBe(3);
    expect(r0.sharedConfirmed).toEqual([false, true]);
    expect(r0.chain).toBe(3);
  });

  it('an RRef sent back to its owner is the owner RRef itself (test_rref_forward_chain)', () => {
    expect(r0.backToOwner).toEqual([true, 'tensor([1., 1., 1.])']);
  });

  it('new RRef(value) is a local owner RRef that others can use: RRef(40) + 50 == 90 (test_local_rref_no_fork, test_pass_local_rrefs)', () => {
    const [str, isOwner, localValue, toHere, added] = r0.local as unknown[];
    expect(str).toMatch(/^OwnerRRef\(GloballyUniqueId\(created_on=0, local_id=\d+\)\)$/);
    expect([isOwner, localValue, toHere, added]).toEqual([true, 40, 40, 90]);
  });

  it('RRefs returned by calls, owned by the callee or by a third worker, and remote() inside remote() (test_rpc_return_rref, test_return_local_rrefs, test_nested_remote)', () => {
    expect(r0.returnedRRef).toEqual(['worker2', false, [1, 1]]);
    expect(r0.returnedLocal).toEqual(['worker1', 7]);
    expect(r0.nestedRemote).toEqual([1, 1, 1, 1]);
  });

  it('proxies call methods of the value on its owner; a missing method is an AttributeError (test_rref_proxy_class, test_rref_proxy_non_exist)', () => {
    expect([r0.proxySync, r0.proxyAsync, r0.proxyRemote]).toEqual([7, 10, 20]);
    expect(r0.missingAttr).toMatchObject({
      name: 'AttributeError',
      message: expect.stringContaining("'Counter' object has no attribute 'nope'"),
    });
  });

  it('creation errors and timeouts land on the RRef; toHere has its own timeout (test_remote_throw, test_rref_timeout, test_rref_to_here_timeout)', () => {
    const creation = {
      name: 'TypeError',
      code: 'REMOTE',
      message: 'On WorkerInfo(id=1, name=worker1):\ncreation failed',
    };
    expect(r0.creationError).toEqual([creation, creation]);
    const timedOut = (ms: number) => ({
      name: 'RpcError',
      code: 'TIMEOUT',
      message: `RPC ran for more than set timeout (${ms} ms) and will now be marked with an error`,
    });
    expect(r0.remoteTimeout).toEqual([timedOut(50), timedOut(50)]);
    expect(r0.toHereTimeout).toEqual([timedOut(10), 300]);
  });

  it('once every user is released (G1, G2 respected), no owner holds anything (test_rref_context_debug_info)', () => {
    const empty = { numOwnerRRefs: 0, numPendingUsers: 0, numPendingChildren: 0, numForks: 0 };
    expect(r0.ownerDebug).toEqual([empty, empty]);
    expect(r0.selfDebug).toEqual(empty);
    expect(r0.afterRelease).toMatchObject({
      code: 'RREF',
      message: expect.stringContaining('Cannot call to_here() on it after deletion.'),
    });
  });

  it('`await using` releases an RRef at the end of its block (Symbol.asyncDispose)', () => {
    expect(r0.scoped).toEqual([1, 1]);
    // everything else worker0 holds on worker1 is still alive here; the scoped RRef is not among it
    expect((r0.afterScope as { numOwnerRRefs: number }).numOwnerRRefs).toBe(
      (r0.beforeScope as { numOwnerRRefs: number }).numOwnerRRefs,
    );
  });

  it('after shutdown an RRef is deleted (test_use_rref_after_shutdown)', () => {
    expect(r0.afterShutdown).toMatchObject({
      code: 'RREF',
      message: expect.stringContaining('Cannot call to_here() on it after deletion.'),
    });
  });
});

describe('RRefs dropped without release()', () => {
  it('reach their owner through the FinalizationRegistry fallback (G1 still holds)', async () => {
    const [r0] = (await runWorkers({ scenario: 'rrefGc', worldSize: 2 })) as Record<string, unknown>[];
    expect(r0).toEqual({ fetched: 20, ownedBefore: 20, ownedAfterGc: 0 });
  }, 30000);
});
