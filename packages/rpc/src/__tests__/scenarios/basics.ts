import { add, max, ones, tensor, type Tensor } from '@wiregrad/tensor';
import {
  Future,
  getRpcTimeout,
  getWorkerInfo,
  getWorkerInfos,
  initRpc,
  register,
  remote,
  rpcAsync,
  rpcSync,
  setRpcTimeout,
  shutdown,
  waitAll,
} from '@wiregrad/rpc';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { errorOf, plain, sleep } from '@wiregrad/test-helpers';

class ValueError extends Error {
  override name = 'ValueError';
}

register('echo', (x: unknown) => x);
register('raise', () => {
  throw new ValueError('Expected error');
});
register('raiseEscaped', () => {
  throw new ValueError('Expected error "with" \\escapes\\ and\nnewlines');
});
register('expectsNumber', (x: unknown) => {
  if (typeof x !== 'number') throw new TypeError(`expected a number, got ${typeof x}`);
  return x;
});
register('sleep', (ms: number) => sleep(ms).then(() => ms));
register('nested', (to: string, a: Tensor) => rpcSync(to, add, [a, a]));
register('whoami', () => getWorkerInfo().name);
register('args', (...args: unknown[]) =>
  args.map((a) => (a === undefined ? 'undefined' : a === null ? 'null' : typeof a)),
);
// async_execution: a function returning a Promise (or a Future) is answered when it settles
register('asyncAdd', async (to: string, a: number, b: number) => (await rpcAsync<number>(to, 'sleepAdd', [a, b])) + 1);
register('sleepAdd', (a: number, b: number) => sleep(20).then(() => a + b));
register('asyncRaise', async () => {
  await sleep(5);
  throw new TypeError('raised after await');
});
register('futureChain', (to: string, x: number) =>
  rpcAsync<number>(to, 'sleepAdd', [x, 1]).then((v) => rpcAsync<number>(to, 'sleepAdd', [v, 1])),
);
register('fanout', (tos: string[], x: number) => waitAll(tos.map((to) => rpcAsync<number>(to, 'sleepAdd', [x, 0]))));
register('returnsFuture', () => Future.resolved('a future is awaited like a promise'));
/** test_multi_layer_nested_async_rpc: a chain of `ttl` async hops through every worker */
register('multiLayer', async (ttl: number, worldSize: number) => {
  if (ttl === 0) return 0;
  const next = (getWorkerInfo().id + 1) % worldSize;
  return 1 + (await rpcAsync<number>(next, 'multiLayer', [ttl - 1, worldSize]));
});

/** Waits until every worker got here (rank 0 counts), so no nested call crosses the timeout phase below. */
let arrived = 0;
register('arrive', () => ++arrived);
register('arrived', () => arrived);
async function barrier(worldSize: number): Promise<void> {
  await rpcSync(0, 'arrive');
  while ((await rpcSync<number>(0, 'arrived')) < worldSize) await sleep(10);
}

export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 10 } });
  const self = `worker${rank}`;
  const next = `worker${(rank + 1) % worldSize}`;
  const third = `worker${(rank + 2) % worldSize}`;
  const out: Record<string, unknown> = {};
  out.infos = getWorkerInfos().map((w) => [w.name, w.id]);
  out.self = String(getWorkerInfo());
  out.byName = String(getWorkerInfo(next));
  out.unknownInfo = await errorOf(() => getWorkerInfo('nobody'));
  out.add = (await rpcSync(next, add, [ones([2, 2]), ones([2, 2])])).tolist();
  out.scalarAdd = (await rpcSync(next, add, [tensor([1, 2]), 3])).tolist();
  // storages in the shared wasm memory (Note [Storages in wasm memory]) go out as views of it, both ways
  const big = ones([1 << 16]).mul(2);
  const bigSum = await rpcSync(next, add, [big, big]);
  out.bigAdd = [big.storage.data.buffer instanceof SharedArrayBuffer, bigSum.numel, bigSum.sum().item()];
  out.selfAdd = [
    (await rpcSync<Tensor>(self, 'add', [tensor([1]), 2])).tolist(),
    (await rpcAsync(rank, add, [tensor([1]), 3])).tolist(),
  ];
  out.builtinMax = (await rpcSync(next, max as (x: Tensor) => Tensor, [tensor([3, 9, 2])])).item();
  out.toForms = [
    await rpcSync((rank + 1) % worldSize, 'whoami'),
    await rpcSync(getWorkerInfo(next), 'whoami'),
    await rpcSync(next, 'whoami'),
  ];
  out.badRanks = [
    await errorOf(rpcSync(worldSize + 1, 'echo', [1])),
    await errorOf(rpcSync(-1, 'echo', [1])),
    await errorOf(rpcSync(rank + 0.5, 'echo', [1])),
  ];
  out.unknownWorker = await errorOf(rpcSync('nobody', 'echo', [1]));
  let seq = 0;
  for (let i = 0; i < 20; i++) seq += (await rpcSync(next, add, [tensor([i]), 1])).item();
  out.multiRpc = seq;
  out.manyFutures = (await waitAll(Array.from({ length: 100 }, (_, i) => rpcAsync(next, add, [tensor([i]), 0])))).map(
    (t) => t.item(),
  );
  out.then = await rpcAsync<number>(next, 'sleepAdd', [1, 1]).then((v) => v * 10);
  out.args = await rpcSync(next, 'args', [undefined, null, 1, 'x', 2n]);
  const view = tensor(
    [
      [1, 2, 3],
      [4, 5, 6],
    ],
    { dtype: 'float64' },
  ).t();
  out.echo = plain(
    await rpcSync(next, 'echo', [
      { t: view, n: [1n << 60n, new Map([['k', new Int32Array([7])]]), null, 'str', true, -0] },
    ]),
  );
  out.remoteError = await errorOf(rpcSync(next, 'raise'));
  out.escapedError = await errorOf(rpcSync(next, 'raiseEscaped'));
  out.typeError = await errorOf(rpcSync(next, 'expectsNumber', ['one']));
  out.unknownFn = await errorOf(rpcSync(next, 'doesNotExist'));
  out.unregistered = await errorOf(rpcSync(next, () => 1));
  out.nested = (await rpcSync<Tensor>(next, 'nested', [third, tensor([3])])).tolist();
  out.asyncAdd = await rpcSync(next, 'asyncAdd', [third, 1, 2]);
  out.asyncRaise = await errorOf(rpcSync(next, 'asyncRaise'));
  out.futureChain = await rpcSync(next, 'futureChain', [third, 1]);
  out.fanout = await rpcSync(next, 'fanout', [[self, next, third], 7]);
  out.returnsFuture = await rpcSync(next, 'returnsFuture');
  out.asyncRemote = await remote<number>(next, 'asyncAdd', [third, 2, 2]).toHere();
  // one chain at a time: each hop holds a serving slot on its worker while it waits (Note [ZeroMQ agent])
  if (rank === 0) out.multiLayer = await rpcSync(next, 'multiLayer', [20, worldSize]);
  // timeouts: per call, the default, 0 = none; a new default applies only to new calls. Nested
  // calls made while serving would take this worker's small default: none runs past the barrier.
  await barrier(worldSize);
  out.timeout = await errorOf(rpcSync(next, 'sleep', [2000], { timeout: 0.1 }));
  const inFlight = rpcAsync(next, 'sleep', [300]);
  setRpcTimeout(0.1);
  out.defaultTimeout = [getRpcTimeout(), await errorOf(rpcSync(next, 'sleep', [2000]))];
  out.oldCallKeepsItsTimeout = await inFlight;
  out.noTimeout = await rpcSync(next, 'sleep', [300], { timeout: 0 });
  out.badTimeout = await errorOf(() => rpcSync(next, 'sleep', [1], { timeout: -1 }));
  setRpcTimeout(10);
  await shutdown();
  out.afterShutdown = [
    await errorOf(rpcSync(next, 'echo', [1])),
    await errorOf(rpcAsync(next, 'echo', [1])),
    await errorOf(() => remote(next, 'echo', [1])),
    await errorOf(() => getWorkerInfo()),
  ];
  out.shutdownTwice = await errorOf(shutdown());
  return out;
}
