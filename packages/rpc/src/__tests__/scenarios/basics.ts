import { add, ones, tensor, type Tensor } from '@wiregrad/tensor';
import type { RpcError} from '@wiregrad/rpc';
import { getWorkerInfo, getWorkerInfos, initRpc, register, rpcAsync, rpcSync, shutdown, waitAll } from '@wiregrad/rpc';
import type { ScenarioContext } from '../worker.js';

class ValueError extends Error {
  override name = 'ValueError';
}

register('echo', (x: unknown) => x);
register('raise', () => {
  throw new ValueError('Expected error');
});
register('slowAdd', async (a: number, b: number) => {
  await new Promise((r) => setTimeout(r, 50));
  return a + b;
});
register('sleep', (ms: number) => new Promise((r) => setTimeout(() => r(ms), ms)));
register('nested', (to: string, a: Tensor) => rpcSync(to, add, [a, a]));
register('whoami', () => getWorkerInfo().name);

const errorOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return null;
  } catch (e) {
    return { name: (e as Error).name, message: (e as Error).message, code: (e as RpcError).code };
  }
};

export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 10 } });
  const next = `worker${(rank + 1) % worldSize}`;
  const out: Record<string, unknown> = {};
  out.infos = getWorkerInfos().map((w) => [w.name, w.id]);
  out.self = getWorkerInfo().toString();
  out.add = ((await rpcSync<Tensor>(next, add, [ones([2, 2]), ones([2, 2])])).tolist());
  out.selfAdd = (await rpcSync<Tensor>(`worker${rank}`, 'add', [tensor([1]), 2])).tolist();
  out.intCallee = await rpcSync((rank + 1) % worldSize, 'whoami');
  out.async = await waitAll(Array.from({ length: 20 }, (_, i) => rpcAsync<number>(next, 'slowAdd', [i, 1])));
  out.then = await rpcAsync<number>(next, 'slowAdd', [1, 1]).then((v) => v * 10);
  const nonContig = tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float64' }).t();
  const back = await rpcSync<Tensor>(next, 'echo', [{ t: nonContig, n: [1n << 60n, new Map([['k', new Int32Array([7])]]), null, 'str', true] }]);
  out.echo = back;
  out.remoteError = await errorOf(rpcSync(next, 'raise'));
  out.unknownFn = await errorOf(rpcSync(next, 'doesNotExist'));
  out.unknownWorker = await errorOf(rpcSync('nobody', 'echo', [1]));
  out.badRank = await errorOf(rpcSync(worldSize + 1, 'echo', [1]));
  out.timeout = await errorOf(rpcSync(next, 'sleep', [2000], { timeout: 0.1 }));
  out.nested = (await rpcSync<Tensor>(next, 'nested', [`worker${(rank + 2) % worldSize}`, tensor([3])])).tolist();
  out.unregistered = await errorOf(rpcSync(next, () => 1));
  await shutdown();
  out.afterShutdown = await errorOf(rpcSync(next, 'echo', [1]));
  return JSON.parse(JSON.stringify(out, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Map ? [...v] : ArrayBuffer.isView(v) ? Array.from(v as Int32Array) : v && typeof v === 'object' && 'shape' in v && 'storage' in v ? { shape: (v as Tensor).shape, dtype: (v as Tensor).dtype, values: (v as Tensor).tolist(), contiguous: (v as Tensor).isContiguous() } : v)));
}
