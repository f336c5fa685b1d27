import { initRpc, shutdown, type RpcError } from '@wiregrad/rpc';
import type { ScenarioContext } from '@wiregrad/test-helpers';

/** Rank 1 takes another secret than rank 0 (or runs insecure): its initRpc fails with AUTH, saying where each side took its secret. */
export async function run({ rank, worldSize, initMethod, extra }: ScenarioContext) {
  const { secrets } = extra as { secrets: (string | null)[] };
  const mine = secrets[rank];
  const backendOptions = {
    initMethod,
    rpcTimeout: rank === 0 ? 2.5 : 10,
    ...(mine === null ? { insecure: true } : { secret: mine }),
  };
  try {
    await initRpc(`worker${rank}`, { rank, worldSize, backendOptions });
  } catch (e) {
    return { code: (e as RpcError).code, message: (e as Error).message };
  }
  await shutdown();
  return { code: null };
}
