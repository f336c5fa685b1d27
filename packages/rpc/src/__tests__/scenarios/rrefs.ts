import { tensor, type Tensor } from '@wiregrad/tensor';
import { RRef, getRRefDebugInfo, getWorkerInfo, initRpc, register, remote, rpcSync, shutdown } from '@wiregrad/rpc';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { errorOf, sleep } from '@wiregrad/test-helpers';

class Counter {
  constructor(public value: number) {}
  increment(by: number) {
    this.value += by;
    return this.value;
  }
}

register('makeCounter', (start: number) => new Counter(start));
register('ones', (n: number) => tensor(new Float32Array(n).fill(1)));
register('sleepValue', (ms: number) => sleep(ms).then(() => ms));
/** Runs `fn` on a received RRef, then releases it (what PyTorch's refcount does when the UDF returns). */
const using = <T, R>(r: RRef<T>, fn: () => Promise<R>) => fn().finally(() => r.release());

/** Releases an RRef the function returns once the answer is on its way (PyTorch's refcount drop after pickling). */
const releasedAfterReturn = <R extends RRef>(r: R): R => {
  setTimeout(() => void r.release(), 0);
  return r;
};

register('addRRef', (r: RRef<number>, x: number) => using(r, async () => (await r.toHere()) + x));
register('forward', (r: RRef<Tensor>, to: string) => using(r, () => rpcSync(to, 'sumRRef', [r])));
register('sumRRef', (r: RRef<Tensor>) => using(r, async () => (await r.toHere()).sum().item()));
register('raiseLater', () => {
  throw new TypeError('creation failed');
});
register('debug', () => getRRefDebugInfo());
register('isOwnerHere', (r: RRef) => using(r, async () => [r.isOwner(), String(r.localValue())]));
/** test_user_rrefs_confirmed: a shared user RRef is confirmed by its owner soon after it arrives */
register('confirmedSoon', (r: RRef) =>
  using(r, async () => {
    for (let i = 0; i < 500 && !r.confirmedByOwner(); i++) await sleep(10);
    return [r.isOwner(), r.confirmedByOwner()];
  }),
);
/** test_rpc_return_rref: the callee creates a remote value on another worker and returns the RRef */
register('remoteOn', (to: string, n: number) => releasedAfterReturn(remote(to, 'ones', [n])));
/** test_return_local_rrefs: the callee returns an RRef it owns */
register('localRRef', (v: number) => releasedAfterReturn(new RRef(v)));
/** test_nested_remote: a remote call made from inside a remote call */
register('nestedRemote', (to: string) => {
  const r = remote<Tensor>(to, 'ones', [4]);
  return using(r, () => r.toHere());
});

export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 10 } });
  const out: Record<string, unknown> = {};
  if (rank === 0) {
    const rref = remote<Tensor>('worker1', 'ones', [3]);
    out.isOwner = rref.isOwner();
    out.owner = [rref.ownerName(), rref.owner() === getWorkerInfo('worker1')];
    out.toHere = (await rref.toHere()).tolist();
    out.confirmed = rref.confirmedByOwner();
    out.str = String(rref);
    out.localValueOnUser = await errorOf(() => rref.localValue());
    out.shared = await rpcSync('worker2', 'sumRRef', [rref]);
    out.sharedConfirmed = await rpcSync('worker2', 'confirmedSoon', [rref]);
    out.chain = await rpcSync('worker2', 'forward', [rref, 'worker0']);
    out.backToOwner = await rpcSync('worker1', 'isOwnerHere', [rref]);
    const local = new RRef(40);
    out.local = [
      String(local),
      local.isOwner(),
      local.localValue(),
      await local.toHere(),
      await rpcSync('worker1', 'addRRef', [local, 50]),
    ];
    const returned = await rpcSync<RRef<Tensor>>('worker1', 'remoteOn', ['worker2', 2]);
    out.returnedRRef = [returned.ownerName(), returned.isOwner(), (await returned.toHere()).tolist()];
    const theirs = await rpcSync<RRef<number>>('worker1', 'localRRef', [7]);
    out.returnedLocal = [theirs.ownerName(), await theirs.toHere()];
    const nested = remote<Tensor>('worker1', 'nestedRemote', ['worker2']);
    out.nestedRemote = (await nested.toHere()).tolist();
    const counter = remote<Counter>('worker1', 'makeCounter', [5]);
    out.proxySync = await counter.rpcSync().increment!(2);
    out.proxyAsync = await counter.rpcAsync().increment!(3);
    const viaRemote = counter.remote().increment!(10) as RRef<number>;
    out.proxyRemote = await viaRemote.toHere();
    out.missingAttr = await errorOf(counter.rpcSync().nope!() as Promise<unknown>);
    const failed = remote('worker1', 'raiseLater');
    out.creationError = [await errorOf(failed.getFuture()), await errorOf(failed.toHere())];
    const slowCreation = remote('worker1', 'sleepValue', [1000], { timeout: 0.05 });
    out.remoteTimeout = [await errorOf(slowCreation.getFuture()), await errorOf(slowCreation.toHere())];
    const slow = remote<number>('worker1', 'sleepValue', [300]);
    out.toHereTimeout = [await errorOf(slow.toHere(0.01)), await slow.toHere()];
    out.beforeScope = await rpcSync('worker1', 'debug');
    {
      await using scoped = remote<Tensor>('worker1', 'ones', [2]);
      out.scoped = (await scoped.toHere()).tolist();
    }
    out.afterScope = await rpcSync('worker1', 'debug');
    const all = [rref, local, returned, theirs, nested, counter, viaRemote, failed, slowCreation, slow];
    await Promise.all(all.map((r) => r.release()));
    await Promise.all(all.map((r) => r.release())); // idempotent
    await sleep(300);
    out.ownerDebug = [await rpcSync('worker1', 'debug'), await rpcSync('worker2', 'debug')];
    out.selfDebug = getRRefDebugInfo();
    out.afterRelease = await errorOf(rref.toHere());
    const kept = remote<Tensor>('worker1', 'ones', [1]);
    await kept.toHere();
    await shutdown();
    out.afterShutdown = await errorOf(kept.toHere());
    return out;
  }
  await shutdown();
  return out;
}
