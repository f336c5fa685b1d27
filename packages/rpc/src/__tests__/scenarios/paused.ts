import { initRpc, register, rpcSync, shutdown, type RpcError } from '@wiregrad/rpc';
import { sleep, type ScenarioContext } from '@wiregrad/test-helpers';

/** Resolves once this worker has answered a ping. */
let answered!: () => void;
const pinged = new Promise<void>((resolve) => (answered = resolve));
register('ping', () => (answered(), 'pong'));

/**
 * Rank 1's event loop stops for 1.5 s (a paused process looks the same to its peers), longer
 * than the 600 ms dead-peer window: rank 0 drops it. Back, rank 1's next call learns that from
 * rank 0 at once (DROPPED), and its error says that it was rank 1 that was paused.
 */
export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  await initRpc(`worker${rank}`, {
    rank,
    worldSize,
    backendOptions: { initMethod, rpcTimeout: 10, heartbeatMs: 200, deadAfterHeartbeats: 3 },
  });
  await rpcSync((rank + 1) % worldSize, 'ping');
  if (rank === 0) {
    await sleep(4000);
    await shutdown({ graceful: false });
    return 'ok';
  }
  // pause only once rank 0's ping was answered and the answer sent: a ping still pending when
  // rank 0 drops this worker would fail rank 0's run (it did once, in CI under load)
  await pinged;
  await sleep(50);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
  await sleep(50);
  const t0 = performance.now();
  const error = await rpcSync(0, 'ping').then(
    () => null,
    (e: RpcError) => ({ code: e.code, message: e.message }),
  );
  const ms = performance.now() - t0;
  await shutdown({ graceful: false });
  return { error, ms };
}
