import type { RpcError } from '@wiregrad/rpc';
import { initRpc, register, rpcSync, rpcAsync, shutdown } from '@wiregrad/rpc';
import type { ScenarioContext } from '@wiregrad/test-helpers';

register('ping', () => 'pong');
register('hang', () => new Promise(() => {}));
const err = async (p: PromiseLike<unknown>) =>
  Promise.resolve(p).then(
    () => null,
    (e: RpcError) => e.code,
  );

export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 3, heartbeatMs: 200 } });
  if (rank === 2) {
    // the victim: answer one call, then die abruptly without a graceful shutdown
    await rpcSync(0, 'ping');
    await new Promise((r) => setTimeout(r, 300));
    await shutdown({ graceful: false });
    return 'died';
  }
  if (rank === 0) {
    const pending = rpcAsync(2, 'hang', [], { timeout: 0 });
    await new Promise((r) => setTimeout(r, 2000));
    const t0 = Date.now();
    const pendingCode = await err(pending);
    const newCall = await err(rpcSync(2, 'ping'));
    const elapsed = Date.now() - t0;
    const others = await rpcSync(1, 'ping');
    await shutdown({ graceful: false });
    return { pendingCode, newCall, within: elapsed < 4000, others };
  }
  await new Promise((r) => setTimeout(r, 2500));
  await shutdown({ graceful: false });
  return 'ok';
}
