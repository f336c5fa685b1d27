import { add, tensor } from '@wiregrad/tensor';
import {
  getRpcTimeout,
  getWorkerInfos,
  initRpc,
  register,
  remote,
  rpcAsync,
  rpcState,
  rpcSync,
  setRpcTimeout,
  shutdown,
} from '@wiregrad/rpc/internal';
import type { ScenarioContext } from '@wiregrad/test-helpers';

register('twice', (x: number) => x * 2);
const err = async (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: Error & { code?: string }) => ({ code: e.code, message: e.message }),
  );

export async function run({ rank, worldSize, initMethod, extra }: ScenarioContext) {
  const out: Record<string, unknown> = {};
  const mode = extra as string;
  if (mode === 'checks') {
    out.badName = await err(initRpc('abc*', { rank, worldSize, backendOptions: { initMethod } }));
    out.emptyName = await err(initRpc('', { rank, worldSize, backendOptions: { initMethod } }));
    out.longName = await err(initRpc('a'.repeat(500), { rank, worldSize, backendOptions: { initMethod } }));
    out.badRank = await err(initRpc('w', { rank: 5, worldSize, backendOptions: { initMethod } }));
    out.badOption = await err(initRpc('w', { rank, worldSize, backendOptions: { initMethod, bogus: 1 } as never }));
    out.badInit = await err(initRpc('w', { rank, worldSize, backendOptions: { initMethod: 'http://x' } }));
    out.beforeInit = await err(rpcSync('w', 'twice', [1]));
    return out;
  }
  if (mode === 'duplicate') {
    out.duplicate = await err(initRpc('same', { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 5 } }));
    return out;
  }
  if (mode === 'deviceMaps') {
    const deviceMaps: Record<string, Record<string, string>> = rank === 0
      ? { worker1: { cpu: 'cpu', 'gpu:0': 'cpu' } }
      : {};
    out.duplicateTargets = await err(
      initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 5, deviceMaps } }),
    );
    return out;
  }
  if (mode === 'worldOne') {
    // env:// rendezvous (MASTER_ADDR / MASTER_PORT; this thread's own environment) with a world of one
    const [host, port] = initMethod.replace('tcp://', '').split(':');
    out.missingEnv = await err(initRpc('solo', { rank: 0, worldSize: 1 }));
    process.env.MASTER_ADDR = host;
    process.env.MASTER_PORT = port;
    // listening on every interface: the others are told the interface that reaches the store
    await initRpc('solo', { rank: 0, worldSize: 1, backendOptions: { listenAddress: 'tcp://0.0.0.0:0' } });
    out.advertised = rpcState().agent.peerAddresses.get(0);
    out.infos = getWorkerInfos().map(String);
    out.sync = (await rpcSync('solo', add, [tensor([1]), tensor([2])])).tolist();
    out.async = await rpcAsync(0, 'twice', [4]);
    const rref = remote<number>('solo', 'twice', [5]);
    out.remote = [rref.isOwner(), await rref.toHere(), rref.localValue()];
    await rref.release();
    await shutdown();
    return out;
  }
  // reinit: init, call, shut down, init again on a new port, call again
  const opts = (m: string) => ({ rank, worldSize, backendOptions: { initMethod: m, rpcTimeout: 5 } });
  await initRpc(`worker${rank}`, opts(initMethod));
  out.first = await rpcSync(`worker${(rank + 1) % worldSize}`, 'twice', [21]);
  out.double = await err(initRpc(`worker${rank}`, opts(initMethod)));
  out.timeout = getRpcTimeout();
  setRpcTimeout(7);
  out.newTimeout = getRpcTimeout();
  await shutdown();
  const [host, port] = initMethod.replace('tcp://', '').split(':');
  await initRpc(`worker${rank}`, opts(`tcp://${host}:${Number(port) + 1}`));
  out.second = await rpcSync(`worker${(rank + 1) % worldSize}`, 'twice', [5]);
  await shutdown();
  return out;
}
