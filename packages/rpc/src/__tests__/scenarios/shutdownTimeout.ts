import { initRpc, register, rpcSync, shutdown } from '@wiregrad/rpc';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { errorOf, sleep } from '@wiregrad/test-helpers';

register('ping', () => 'pong');

/**
 * The leader shuts down while worker1 never joins the barrier: shutdown() gives up at its
 * timeout. With `extra` 'unlimited', worker1 trains on for 2.5 s and then joins: worker0's
 * shutdown({ timeout: 0 }) waits for it, however long (PyTorch's 0 = no timeout).
 */
export async function run({ rank, worldSize, initMethod, extra }: ScenarioContext) {
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 5 } });
  await rpcSync((rank + 1) % worldSize, 'ping');
  if (extra === 'unlimited') {
    if (rank === 1) await sleep(2500);
    const t0 = Date.now();
    const error = await errorOf(shutdown({ timeout: 0 }));
    return { error, waitedMs: Date.now() - t0 };
  }
  if (rank === 1) {
    await sleep(2500);
    await shutdown({ graceful: false });
    return 'left without the barrier';
  }
  const t0 = Date.now();
  const error = await errorOf(shutdown({ timeout: 0.5 }));
  const tookMs = Date.now() - t0;
  return { error, tookMs, afterwards: await errorOf(rpcSync(1, 'ping')) };
}
