import { grad, tensor, type Tensor } from '@wiregrad/autograd';
import { initRpc, register, rpcSync, shutdown } from '@wiregrad/rpc';
import { backward, context, getDebugInfo, getGradients } from '@wiregrad/dist-autograd';
import type { ScenarioContext } from '@wiregrad/test-helpers';

register('scaled', (t: Tensor, k: number) => t.mul(k));
let finished = 0;
register('finished', () => ++finished);

const values = (t: Tensor | null | undefined) => (t ? (t.tolist() as number[]) : null);

/**
 * A piece of split and a piece of unbind cross to worker1 inside a context (See Note [Multi-output
 * views]): their gradients come back through the SendRpcBackward of each piece into the one
 * SplitBackward0 / UnbindBackward0 node, which builds x's gradient with zeros for the pieces that
 * got none. x = [0..4]; loss = sum(split(x, 2)[0]) + sum(3 * split(x, 2)[1]) + 6 * unbind(x)[4].
 */
export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 10 } });
  const out: Record<string, unknown> = {};
  if (rank === 0) {
    const x = tensor([0, 1, 2, 3, 4], { dtype: 'float64', requiresGrad: true });
    Object.assign(
      out,
      await context(async (id) => {
        const pieces = x.split(2);
        const rows = x.unbind(0);
        const remoteSplit = await rpcSync<Tensor>('worker1', 'scaled', [pieces[1]!, 3]);
        const remoteUnbind = await rpcSync<Tensor>('worker1', 'scaled', [rows[4]!, 6]);
        const loss = pieces[0]!.sum().add(remoteSplit.sum()).add(remoteUnbind);
        await backward(id, [loss]);
        const [local] = grad(pieces[0]!.sum().add(pieces[1]!.mul(3).sum()).add(rows[4]!.mul(6)), [x]);
        return {
          gradFns: [pieces[1]!.gradFn?.name(), rows[4]!.gradFn?.name()],
          oneNodePerCall:
            pieces.every((p) => p.gradFn === pieces[0]!.gradFn) && rows.every((r) => r.gradFn === rows[0]!.gradFn),
          distributed: values(getGradients(id).get(x)),
          local: values(local),
          leafGrad: x.grad,
        };
      }),
    );
  }
  await Promise.all(
    Array.from({ length: worldSize }, (_, w) => w)
      .filter((w) => w !== rank)
      .map((w) => rpcSync(w, 'finished')),
  );
  while (finished < worldSize - 1) await new Promise((r) => setTimeout(r, 20));
  for (let waited = 0; getDebugInfo().numAutogradContexts > 0 && waited < 10_000; waited += 20)
    await new Promise((r) => setTimeout(r, 20));
  out.contextsAfter = getDebugInfo().numAutogradContexts;
  await shutdown();
  return out;
}
