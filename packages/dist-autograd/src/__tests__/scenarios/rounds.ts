import { rand, type Tensor } from '@wiregrad/autograd';
import { getRpcStats, initRpc, register, rpcState, rpcSync, shutdown } from '@wiregrad/rpc/internal';
import { backward, context, getContainer, getDebugInfo, getGradients } from '@wiregrad/dist-autograd';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { setReleaseWait } from '../../workerState.js';
import { setMaxFiringSet } from '../../pass/reachability.js';

register('affine', (x: Tensor, w: Tensor) => x.mul(w).add(1));
register('sent', () => getRpcStats().messagesSent);
register('contexts', () => getDebugInfo().numAutogradContexts);
/** Every call this worker made has its answer. */
async function settled(): Promise<void> {
  while (rpcState().agent.pendingCount() > 0) await new Promise((r) => setTimeout(r, 5));
}

/**
 * Messages each side sends per distributed round (forward, backward, leaving the context),
 * with firing sets and with mark rounds; then where the releases go (Note [Releases ride on
 * the next message]): with nothing to ride on they leave on their own after the wait, and
 * shutdown() sends those still waiting before it settles.
 */
export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  // heartbeats are messages too (getRpcStats counts them): at the default 1 s, a round that left the
  // callee silent for a second on a loaded machine (a stress run of the test command under 2 busy
  // loops) added a HEARTBEAT_REQ to the count (2.1 a round); at 10 s none comes unless a round stalls
  await initRpc(`worker${rank}`, {
    rank,
    worldSize,
    backendOptions: { initMethod, rpcTimeout: 10, heartbeatMs: 10_000 },
  });
  // no release goes on its own during the count, however slow a round is on a loaded machine:
  // each rides on the next round's forward call (Note [Releases ride on the next message])
  setReleaseWait(60_000);
  if (rank === 1) {
    const container = getContainer(); // shutdown() drops it: look at it afterwards
    await shutdown();
    return { contextsAtShutdown: container.contexts.size };
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
    await round(); // warm: its release rides on the first counted round
    await settled();
    const [mine, theirs] = [getRpcStats().messagesSent, (await rpcSync<number>(1, 'sent')) + 1];
    const grads = [];
    for (let i = 0; i < 10; i++) grads.push(await round());
    await settled(); // the last round's release still waits for a carrier: shutdown() sends it
    const [mine2, theirs2] = [getRpcStats().messagesSent - 1, await rpcSync<number>(1, 'sent')];
    return {
      caller: (mine2 - mine) / 10,
      callee: (theirs2 - theirs) / 10,
      gradsRight: grads.every((g) => JSON.stringify(g) === JSON.stringify(w.tolist())),
    };
  };
  const firingSets = await perRound(1024);
  const markRounds = await perRound(0);

  setReleaseWait(10);
  for (let i = 0; i < 5; i++) await round();
  const waitingRight = await rpcSync<number>(1, 'contexts'); // not a carrier: no context is current
  let waited = 0;
  while ((await rpcSync<number>(1, 'contexts')) > 0 && waited < 10_000) {
    await new Promise((r) => setTimeout(r, 20));
    waited += 20;
  }
  const releasedAlone = (await rpcSync<number>(1, 'contexts')) === 0;

  setReleaseWait(60_000);
  await round(); // its release waits for a carrier that never comes: shutdown() sends it
  await shutdown();
  return { firingSets, markRounds, waitingRight: waitingRight <= 1, releasedAlone };
}
