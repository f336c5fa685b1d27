import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { getRRefDebugInfo, initRpc, register, remote, rpcSync, shutdown } from '@wiregrad/rpc';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { sleep } from '@wiregrad/test-helpers';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

register('value', (i: number) => ({ i }));
register('owned', () => getRRefDebugInfo().numOwnerRRefs);

/** User RRefs that are dropped without release() still reach their owner: the FinalizationRegistry fallback (G1). */
export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 10 } });
  const out: Record<string, unknown> = {};
  if (rank === 0) {
    const fetched = async () => {
      const refs = Array.from({ length: 20 }, (_, i) => remote<{ i: number }>(1, 'value', [i]));
      return (await Promise.all(refs.map((r) => r.toHere()))).map((v) => v.i);
    };
    out.fetched = (await fetched()).length;
    out.ownedBefore = await rpcSync(1, 'owned');
    let owned = out.ownedBefore as number;
    for (let round = 0; round < 50 && owned > 0; round++) {
      gc();
      await sleep(50);
      owned = await rpcSync(1, 'owned');
    }
    out.ownedAfterGc = owned;
  }
  await shutdown();
  return out;
}
