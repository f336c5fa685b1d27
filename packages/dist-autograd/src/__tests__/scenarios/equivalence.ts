import type { FunctionCtx } from '@wiregrad/autograd';
import { Function, grad, manualSeed, rand, tensor, type Tensor } from '@wiregrad/autograd';
import { Adagrad, Adam, AdamW, RMSprop, SGD } from '@wiregrad/nn/optim';

type OptimizerClass = new (params: Tensor[], opts: never) => { step(): void };
import { RRef, initRpc, register, remote, rpcSync, shutdown, getWorkerInfo } from '@wiregrad/rpc';
import {
  DistributedOptimizer,
  backward,
  context,
  getDebugInfo,
  getGradients,
  setContextTimeout,
} from '@wiregrad/dist-autograd';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { setMaxFiringSet } from '../../pass/reachability.js';

// "python UDF" style registered functions used by the cases below
register('mulAdd', (a: Tensor, b: Tensor) => a.mul(b).add(a));
register('twoOutputs', (a: Tensor, b: Tensor) => [a.mul(b), a.sub(b).exp()]);
register('hop', (to: string, a: Tensor, b: Tensor) => rpcSync<Tensor>(to, 'mulAdd', [a.tanh(), b]));
register('mixed', (a: Tensor, b: Tensor) => a.mul(b));
register('sumOf', async (r: RRef<Tensor>) => (await r.toHere()).sum());
class SimulateBackwardError extends Function {
  static override forward(_ctx: FunctionCtx, x: Tensor): Tensor {
    return x.clone();
  }
  static override backward(): Tensor {
    throw new Error('Simulate error on backward pass');
  }
}
register('fail', (a: Tensor) => SimulateBackwardError.apply<Tensor>(a.mul(2)));
register('randParam', (seed: number) => {
  manualSeed(seed);
  return rand([3, 3], { requiresGrad: true });
});
register('matvec', (w: RRef<Tensor>, x: Tensor) => w.localValue().matmul(x));
register('hookedDouble', (a: Tensor) => {
  const y = a.mul(1);
  y.registerHook((g) => g.mul(2));
  return y;
});
let finished = 0;
register('finished', () => ++finished);
register('sleepy', async (a: Tensor) => {
  await new Promise((r) => setTimeout(r, 30));
  return a.mul(3);
});

const close = (a: Tensor | null | undefined, b: Tensor | null | undefined) =>
  !!a && !!b && a.sub(b).abs().max().item() < 1e-9;
const f64 = (shape: number[]) => rand(shape, { dtype: 'float64', requiresGrad: true });

/** A gradient's values to 9 decimals (null: no gradient), comparable with toEqual across the thread boundary. */
const values = (t: Tensor | null | undefined) =>
  t ? (t.flatten().tolist() as number[]).map((v) => Number(v.toFixed(9))) : null;

/** The distributed gradients of `f` and the local gradients of `local` (same math, no RPC), for the spec to compare. */
async function same(
  leaves: Tensor[],
  f: () => Promise<Tensor>,
  local: () => Tensor,
): Promise<{ distributed: (number[] | null)[]; local: (number[] | null)[] }> {
  return context(async (id) => {
    await backward(id, [await f()]);
    const grads = getGradients(id);
    const expected = grad(local(), leaves, { allowUnused: true });
    return { distributed: leaves.map((l) => values(grads.get(l))), local: expected.map(values) };
  });
}

export async function run({ rank, worldSize, initMethod, extra: requested }: ScenarioContext) {
  // 'equivalence-marks': the same cases with every pass asking its reachability in a mark round (Note [Firing sets])
  const extra = requested === 'equivalence-marks' ? 'equivalence' : requested;
  setMaxFiringSet(requested === 'equivalence-marks' ? 0 : 1024);
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 10 } });
  const out: Record<string, unknown> = {};
  if (rank === 0 && extra === 'equivalence') {
    manualSeed(1);
    const a = f64([2, 3]);
    const b = f64([2, 3]);
    out.roundTrips = await same(
      [a, b],
      async () => {
        const x = await rpcSync<Tensor>('worker1', 'mulAdd', [a, b]);
        const y = await rpcSync<Tensor>('worker2', 'mulAdd', [x, a]);
        return (await rpcSync<Tensor>('worker1', 'mulAdd', [y, b])).sum();
      },
      () => {
        const x = a.mul(b).add(a);
        const y = x.mul(a).add(x);
        return y.mul(b).add(y).sum();
      },
    );
    out.nested = await same(
      [a, b],
      async () => (await rpcSync<Tensor>('worker1', 'hop', ['worker2', a, b])).pow(2).sum(),
      () => a.tanh().mul(b).add(a.tanh()).pow(2).sum(),
    );
    out.multipleOutputs = await same(
      [a, b],
      async () => {
        const [p, q] = await rpcSync<Tensor[]>('worker2', 'twoOutputs', [a, b]);
        return p!.sum().add(q!.mean());
      },
      () => a.mul(b).sum().add(a.sub(b).exp().mean()),
    );
    const c = tensor(
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      { dtype: 'float64' },
    );
    out.mixedRequiresGrad = await same(
      [a],
      async () => (await rpcSync<Tensor>('worker1', 'mixed', [a, c])).sum(),
      () => a.mul(c).sum(),
    );
    // an unused RPC output must not hang backward (PyTorch's FAST mode hangs here)
    out.unusedOutput = await same(
      [a, b],
      async () => {
        const used = await rpcSync<Tensor>('worker1', 'mulAdd', [a, b]);
        await rpcSync<Tensor>('worker2', 'mulAdd', [b, a]); // result ignored
        return used.sum();
      },
      () => a.mul(b).add(a).sum(),
    );
    out.selfCall = await same(
      [a],
      async () => (await rpcSync<Tensor>('worker0', 'mulAdd', [a, a])).sum(),
      () => a.mul(a).add(a).sum(),
    );
    out.hooks = await same(
      [a],
      async () => (await rpcSync<Tensor>('worker1', 'hookedDouble', [a])).sum(),
      () => a.mul(2).sum(),
    );
    // RRef chain: remote params on worker1 and worker2, forward through both, DistributedOptimizer
    const w1 = remote<Tensor>('worker1', 'randParam', [5]);
    const w2 = remote<Tensor>('worker2', 'randParam', [6]);
    const x = rand([3, 1]);
    const before = [(await w1.toHere()).clone(), (await w2.toHere()).clone()];
    const opt = new DistributedOptimizer(SGD, [w1, w2], { lr: 0.05 });
    let localGrads: (Tensor | null)[] = [];
    await context(async (id) => {
      const h = await rpcSync<Tensor>('worker1', 'matvec', [w1, x]);
      const y = await rpcSync<Tensor>('worker2', 'matvec', [w2, h]);
      const loss = y.sum();
      await backward(id, [loss]);
      await opt.step(id);
      const l1 = before[0]!.detach();
      l1.requiresGrad = true;
      const l2 = before[1]!.detach();
      l2.requiresGrad = true;
      localGrads = grad(l2.matmul(l1.matmul(x)).sum(), [l1, l2]);
    });
    const after = [await w1.toHere(), await w2.toHere()];
    const float6 = (t: Tensor) => (t.flatten().tolist() as number[]).map((v) => Number(v.toFixed(6)));
    out.distOptim = {
      distributed: after.map(float6),
      local: before.map((w, i) => float6(w.sub(localGrads[i]!.mul(0.05)))),
    };
    // DistributedOptimizer takes every optimizer: one step on worker1's parameter equals the same optimizer's local step
    const everyOptimizer: Record<string, unknown> = {};
    const optimizers: [string, OptimizerClass, object][] = [
      ['Adam', Adam, { lr: 0.1, amsgrad: true }],
      ['AdamW', AdamW, { lr: 0.1, weightDecay: 0.1 }],
      ['RMSprop', RMSprop, { lr: 0.01, momentum: 0.5 }],
      ['Adagrad', Adagrad, { lr: 0.1 }],
    ];
    for (const [name, cls, opts] of optimizers) {
      const w = remote<Tensor>('worker1', 'randParam', [7]);
      const start = (await w.toHere()).detach();
      const distributed = new DistributedOptimizer(cls, [w], opts);
      await context(async (id) => {
        await backward(id, [(await rpcSync<Tensor>('worker1', 'matvec', [w, x])).sum()]);
        await distributed.step(id);
      });
      start.requiresGrad = true;
      const local = new cls([start], opts as never);
      start.matmul(x).sum().backward();
      local.step();
      everyOptimizer[name] = { distributed: float6(await w.toHere()), local: float6(start) };
      await w.release();
    }
    out.everyOptimizer = everyOptimizer;
    // RRef.backward: owner form with a context, and the user form's error without one
    out.rrefUserNoCtx = await w1.backward().then(
      () => null,
      (e: Error) => e.message,
    );
    // owner form: a local RRef of t1.sum() + t1.sum() gives t1 the gradient 2, twice over -> 4
    const t1 = rand([2], { requiresGrad: true });
    const owned = new RRef(t1.sum().add(t1.sum()));
    await owned.backward(-1, true);
    out.rrefOwnerLocal = t1.grad!.tolist();
    await owned.backward();
    out.rrefOwnerTwice = t1.grad!.tolist();
    out.rrefNotTensor = await new RRef(5).backward().then(
      () => null,
      (e: Error) => e.message,
    );
    // user form inside a context: the owner runs the distributed backward from its tensor
    out.rrefUserCtx = await context(async (id) => {
      const y = remote<Tensor>('worker1', 'mulAdd', [a, b]);
      const s = remote<Tensor>('worker1', 'sumOf', [y]);
      await s.backward(id);
      const expected = grad(a.mul(b).add(a).sum(), [a, b]);
      const got = getGradients(id);
      await Promise.all([y.release(), s.release()]);
      return { distributed: [values(got.get(a)), values(got.get(b))], local: expected.map(values) };
    });
    await Promise.all([w1.release(), w2.release()]);
    // errors on another worker reach the caller as "Error on Node <id>: ..."
    out.error = await context(async (id) => {
      const y = await rpcSync<Tensor>('worker1', 'fail', [a]);
      return backward(id, [y.sum()]).then(
        () => null,
        (e: Error) => e.message,
      );
    }).catch((e: Error) => `outer: ${e.message}`);
    out.rootErrors = await context(async (id) =>
      backward(id, [tensor(1)]).then(
        () => null,
        (e: Error) => e.message,
      ),
    );
    out.nonScalar = await context(async (id) =>
      backward(id, [a.mul(2)]).then(
        () => null,
        (e: Error) => e.message,
      ),
    );
    out.nestedContext = await context(async () => context(async () => 1)).then(
      () => null,
      (e: Error) => e.message,
    );
  }
  if (extra === 'stress') {
    // 20 concurrent contexts from each trainer against the parameter server, 100 passes in all
    if (rank !== 0) {
      manualSeed(rank);
      const w = rand([4, 4], { dtype: 'float64' });
      let wrong = 0;
      for (let round = 0; round < 5; round++) {
        const results = await Promise.all(
          Array.from({ length: 20 }, async (_, k) => {
            const x = rand([4, 1], { dtype: 'float64', requiresGrad: true });
            return context(async (id) => {
              const y = await rpcSync<Tensor>('worker0', 'sleepy', [x]);
              const loss = y.mul(w.matmul(x)).sum();
              await backward(id, [loss]);
              const g = getGradients(id).get(x);
              const lx = x.detach();
              lx.requiresGrad = true;
              const [expected] = grad(lx.mul(3).mul(w.matmul(lx)).sum(), [lx]);
              return close(g, expected) ? 0 : 1 + k * 0;
            });
          }),
        );
        wrong += results.reduce((s: number, v) => s + v, 0);
      }
      out.wrong = wrong;
    }
  }
  if (extra === 'expiry') {
    setContextTimeout(1000);
    if (rank === 1) {
      // a context created by a call from worker0, which then vanishes without cleaning up: seen
      // when it arrives (not at a fixed time: on a loaded machine the call may come late), then
      // gone once it expired (the sweep runs every 250 ms), not before its timeout
      const contexts = () => getDebugInfo().numAutogradContexts;
      const until = async (done: () => boolean) => {
        for (let t = Date.now(); !done() && Date.now() - t < 10_000;) await new Promise((r) => setTimeout(r, 10));
      };
      await until(() => contexts() > 0);
      const seenAt = Date.now();
      out.before = contexts();
      await until(() => contexts() === 0);
      out.after = contexts();
      out.expiredAfterTimeout = Date.now() - seenAt >= 900;
    }
    if (rank === 0) {
      const { getContainer } = await import('@wiregrad/dist-autograd');
      const ctx = getContainer().newContext();
      await getContainer().current.run(ctx.contextId, () => rpcSync('worker1', 'mixed', [tensor([1]), tensor([2])]));
      getContainer().take(ctx.contextId); // forget it without telling worker1
    }
  }
  // everyone done (each tells the others), then cleanup messages have had time to land
  await Promise.all(
    Array.from({ length: worldSize }, (_, w) => w)
      .filter((w) => w !== rank)
      .map((w) => rpcSync(w, 'finished')),
  );
  while (finished < worldSize - 1) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 100));
  out.contextsAfter = getDebugInfo().numAutogradContexts;
  out.passesAfter = getDebugInfo().numCurrentBackwardPasses;
  out.me = getWorkerInfo().name;
  await shutdown();
  return out;
}
