import { manualSeed, rand, type Tensor } from '@wiregrad/autograd';
import { initRpc, register, rpcSync, shutdown } from '@wiregrad/rpc';
import { backward, context, getDebugInfo, getGradients, retrieveContext } from '@wiregrad/dist-autograd';
import type { ScenarioContext } from '@wiregrad/test-helpers';

register('myAdd', (a: Tensor, b: Tensor) => a.add(b));
register('gradsHere', (id: bigint) => getGradients(id).size);
const values = (t: Tensor | undefined) => t && (t.flatten().tolist() as number[]).map((v) => Number(v.toFixed(6)));

/** The design note's worked example (docs/source/rpc/distributed_autograd.rst). */
export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 10 } });
  const out: Record<string, unknown> = {};
  if (rank === 0) {
    manualSeed(0);
    await context(async (contextId) => {
      const t1 = rand([3, 3], { requiresGrad: true });
      const t2 = rand([3, 3], { requiresGrad: true });
      const t3 = await rpcSync<Tensor>('worker1', 'myAdd', [t1, t2]);
      const t4 = rand([3, 3], { requiresGrad: true });
      const t5 = t3.mul(t4);
      const loss = t5.sum();
      const ctx = retrieveContext(contextId);
      out.sendFunctions = ctx.sendFunctions().size;
      out.recvFunctions = ctx.recvFunctions().size;
      out.t3GradFn = t3.gradFn?.name();
      out.knownWorkers = [...ctx.knownWorkerIds()];
      out.idHighBits = Number(contextId >> 48n);
      await backward(contextId, [loss]);
      const grads = getGradients(contextId);
      out.numGrads = grads.size;
      // each gradient next to what the math says it is (values to 6 decimals)
      out.t1 = [values(grads.get(t1)), values(t4)];
      out.t2 = [values(grads.get(t2)), values(t4)];
      out.t4 = [values(grads.get(t4)), values(t1.add(t2))];
      out.gradsOfLeaves = [t1.grad, t4.grad];
      out.worker1Grads = await rpcSync('worker1', 'gradsHere', [contextId]);
      await backward(contextId, [t3.mul(t4).sum()]);
      out.accumulated = [values(getGradients(contextId).get(t4)), values(t1.add(t2).mul(2))];
    });
  }
  // worker1's context goes when worker0's cleanup message lands: poll (a loaded machine can take a while)
  for (let waited = 0; getDebugInfo().numAutogradContexts > 0 && waited < 10_000; waited += 20)
    await new Promise((r) => setTimeout(r, 20));
  out.contextsAfter = getDebugInfo().numAutogradContexts;
  await shutdown();
  return out;
}
