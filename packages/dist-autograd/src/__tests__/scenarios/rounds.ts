import { rand, type Tensor } from '@wiregrad/autograd';
import { getRpcStats, initRpc, register, rpcState, rpcSync, shutdown } from '@wiregrad/rpc';
import { backward, context, getGradients } from '@wiregrad/dist-autograd';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { setMaxFiringSet } from '../../engine/firingSet.js';

register('affine', (x: Tensor, w: Tensor) => x.mul(w).add(1));
register('sent', () => getRpcStats().messagesSent);
/** Every call this worker made has its answer (cleanups leave context() without waiting for theirs). */
async function settled(): Promise<void> {
  while (rpcState().agent.pendingCount() > 0) await new Promise((r) => setTimeout(r, 5));
}

/** Messages each side sends per distributed round (forward, backward, leaving the context), with firing sets and with mark rounds. */
export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 10 } });
  if (rank === 1) {
    await shutdown();
    return 'served';
  }
  const x = rand([4], { requiresGrad: true });
  const w = rand([4]);
  const round = () =>
    context(async (id) => {
      const y = await rpcSync<Tensor>(1, 'affine', [x, w]);
      await backward(id, [y.sum()]);
      return getGradients(id).get(x)!.tolist();
    });
  const perRound = async (maxFiringSet: number) => {
    setMaxFiringSet(maxFiringSet);
    await round(); // warm
    await settled();
    const [mine, theirs] = [getRpcStats().messagesSent, (await rpcSync<number>(1, 'sent')) + 1];
    const grads = [];
    for (let i = 0; i < 10; i++) grads.push(await round());
    await settled(); // the cleanups of the last round are answered
    const [mine2, theirs2] = [getRpcStats().messagesSent - 1, await rpcSync<number>(1, 'sent')];
    return {
      caller: (mine2 - mine) / 10,
      callee: (theirs2 - theirs) / 10,
      gradsRight: grads.every((g) => JSON.stringify(g) === JSON.stringify(w.tolist())),
    };
  };
  const firingSets = await perRound(1024);
  const markRounds = await perRound(0);
  await shutdown();
  return { firingSets, markRounds };
}
