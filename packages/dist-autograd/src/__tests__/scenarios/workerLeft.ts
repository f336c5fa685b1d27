import { rand, type Tensor } from '@wiregrad/autograd';
import { getWorkerInfo, initRpc, register, remote, rpcSync, shutdown } from '@wiregrad/rpc';
import {
  DistributedOptimizer,
  backward,
  context,
  getDebugInfo,
  getGradients,
  retrieveContext,
} from '@wiregrad/dist-autograd';
import { SGD } from '@wiregrad/nn/optim';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { errorOf, sleep } from '@wiregrad/test-helpers';

register('double', (a: Tensor) => a.mul(2));
register('contexts', () => getDebugInfo());
register('param', () => rand([2], { requiresGrad: true }));
let started!: (id: bigint) => void;
const worker2Context = new Promise<bigint>((r) => (started = r));
register('worker2Started', (id: bigint) => started(id));

const options = (initMethod: string) => ({ initMethod, heartbeatMs: 200, rpcTimeout: 20 });

/**
 * worker2 takes part in contexts of worker0, creates one of its own on worker1, then dies
 * without a word (abrupt shutdown). Note [A worker that left]: every survivor drops worker2's
 * contexts at once, a backward that needs worker2 fails naming it, cleanup never waits on it.
 */
export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: options(initMethod) });
  if (rank === 2) {
    // a context of worker2's own, left open on worker1 when worker2 dies
    void context(async (id) => {
      await rpcSync('worker1', 'double', [rand([2], { requiresGrad: true })]);
      await rpcSync('worker1', 'worker2Started', [id]);
      await new Promise(() => {});
    });
    await sleep(800);
    await shutdown({ graceful: false });
    return 'died';
  }
  if (rank === 1) {
    const id = await worker2Context;
    const before = await errorOf(() => retrieveContext(id));
    await sleep(3000);
    const after = await errorOf(() => retrieveContext(id));
    await shutdown();
    return { before, after: after?.code };
  }
  const out: Record<string, unknown> = {};
  const param = remote<Tensor>('worker2', 'param');
  await param.toHere();
  const optimizer = new DistributedOptimizer(SGD, [param], { lr: 0.1 });
  await optimizer.ready();
  await context(async (id) => {
    const x = rand([2], { requiresGrad: true });
    const y1 = await rpcSync<Tensor>('worker1', 'double', [x]);
    const y2 = await rpcSync<Tensor>('worker2', 'double', [x]);
    const loss = y1.add(y2).sum();
    await sleep(2500); // worker2 died at ~800 ms and was noticed 600 ms later
    out.backward = await errorOf(backward(id, [loss]));
    // worker1's half still works: a pass that does not need worker2 gives the right gradient
    const only1 = (await rpcSync<Tensor>('worker1', 'double', [x])).sum();
    await backward(id, [only1]);
    out.gradOfX = getGradients(id).get(x)?.tolist();
    out.rrefBackward = await errorOf(param.backward(id));
    out.optimizerStep = await optimizer.step(id).then(
      () => null,
      (e: Error & { code?: string; cause?: { code?: string } }) => ({ code: e.code, causeCode: e.cause?.code }),
    );
    out.worker1Contexts = (
      (await rpcSync('worker1', 'contexts')) as { numAutogradContexts: number }
    ).numAutogradContexts;
  });
  const t0 = Date.now();
  out.contextsAfter = getDebugInfo().numAutogradContexts;
  out.self = getWorkerInfo().id;
  await shutdown();
  out.shutdownMs = Date.now() - t0;
  return out;
}
