// A world of one worker: an RPC to itself inside a distributed autograd context, so the rpc
// hooks dist-autograd installs on import must be there for the gradients to come back.
import { tensor } from '@wiregrad/autograd';
import { backward, context, getGradients } from '@wiregrad/dist-autograd';
import { initRpc, rpcSync, shutdown } from '@wiregrad/rpc';
import type { Tensor } from '@wiregrad/tensor';

async function main(): Promise<void> {
  await initRpc('worker0', {
    rank: 0,
    worldSize: 1,
    backendOptions: { initMethod: `tcp://127.0.0.1:${process.env.PORT}` },
  });
  try {
    const out = await context(async (contextId) => {
      const a = tensor([1, 2, 3], { requiresGrad: true });
      const b = tensor([4, 5, 6], { requiresGrad: true });
      const c = await rpcSync<Tensor>('worker0', 'mul', [a, b]);
      await backward(contextId, [c.sum()]);
      const grads = getGradients(contextId);
      return {
        c: c.tolist(),
        gradA: grads.get(a)?.tolist() ?? null,
        gradB: grads.get(b)?.tolist() ?? null,
        aGrad: a.grad,
      };
    });
    console.log(JSON.stringify(out));
  } finally {
    await shutdown();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
