import { tensor, type Tensor } from '@wiregrad/tensor';
import { RRef, getRRefDebugInfo, initRpc, register, remote, rpcSync, shutdown } from '@wiregrad/rpc';
import type { ScenarioContext } from '../worker.js';

class Counter {
  constructor(public value: number) {}
  increment(by: number) {
    this.value += by;
    return this.value;
  }
}

register('makeCounter', (start: number) => new Counter(start));
register('ones', (n: number) => tensor(new Float32Array(n).fill(1)));
/** Runs `fn` on a received RRef, then releases it (what PyTorch's refcount does when the UDF returns). */
const using = <T, R>(r: RRef<T>, fn: () => Promise<R>) => fn().finally(() => r.release());

register('addRRef', (r: RRef<number>, x: number) => using(r, async () => (await r.toHere()) + x));
register('forward', (r: RRef<Tensor>, to: string) => using(r, () => rpcSync(to, 'sumRRef', [r])));
register('sumRRef', (r: RRef<Tensor>) => using(r, async () => (await r.toHere()).sum().item()));
register('raiseLater', () => {
  throw new TypeError('creation failed');
});
register('debug', () => getRRefDebugInfo());
register('isOwnerHere', (r: RRef) => using(r, async () => [r.isOwner(), String(r.localValue())]));

const err = async (p: Promise<unknown>) => p.then(() => null, (e: Error) => e.message);

export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 10 } });
  const out: Record<string, unknown> = {};
  if (rank === 0) {
    const rref = remote<Tensor>('worker1', 'ones', [3]);
    out.isOwner = rref.isOwner();
    out.owner = rref.ownerName();
    out.toHere = (await rref.toHere()).tolist();
    out.confirmed = rref.confirmedByOwner();
    out.str = rref.toString().startsWith('UserRRef(RRefId = GloballyUniqueId(created_on=0');
    out.localValueOnUser = await err(Promise.resolve().then(() => rref.localValue()));
    // user -> user share: worker2 sums the tensor owned by worker1 (fork request + child accept)
    out.shared = await rpcSync('worker2', 'sumRRef', [rref]);
    // a chain through two hops
    out.chain = await rpcSync('worker2', 'forward', [rref, 'worker0']);
    // local owner RRef passed to others: RRef(40) + 50 == 90
    const local = new RRef(40);
    out.local = [local.isOwner(), local.localValue(), await local.toHere(), await rpcSync('worker1', 'addRRef', [local, 50])];
    // an RRef sent back to its owner arrives as the owner's own value
    out.backToOwner = await rpcSync('worker1', 'isOwnerHere', [rref]);
    const counter = remote<Counter>('worker1', 'makeCounter', [5]);
    out.proxySync = await counter.rpcSync().increment!(2);
    out.proxyAsync = await counter.rpcAsync().increment!(3);
    const viaRemote = counter.remote().increment!(10) as RRef<number>;
    out.proxyRemote = await viaRemote.toHere();
    out.missingAttr = await err(counter.rpcSync().nope!() as Promise<unknown>);
    const failed = remote('worker1', 'raiseLater');
    out.creationError = await err(failed.toHere());
    await Promise.all([rref.release(), counter.release(), viaRemote.release(), local.release(), failed.release()]);
    await new Promise((r) => setTimeout(r, 200));
    out.ownerDebug = await rpcSync('worker1', 'debug');
    out.selfDebug = getRRefDebugInfo();
    out.afterRelease = await err(rref.toHere());
  }
  await shutdown();
  return out;
}
