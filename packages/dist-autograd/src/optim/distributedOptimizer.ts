import { type Tensor } from '@wiregrad/autograd';
import { Adagrad, Adam, AdamW, RMSprop, SGD, type Optimizer } from '@wiregrad/nn/optim';
import { type RRef, register, remote, rpcAsync } from '@wiregrad/rpc';
import { getGradients, retrieveContext } from '../api.js';
import { DistAutogradError } from '../errors.js';

type OptimizerClass = new (params: Tensor[], opts: never) => Optimizer;

const classes = new Map<string, OptimizerClass>();

/** Makes an optimizer class usable by DistributedOptimizer (every optimizer of @wiregrad/nn/optim is registered). */
export function registerOptimizer(name: string, cls: OptimizerClass): void {
  classes.set(name, cls);
}
for (const [name, cls] of Object.entries({ SGD, Adam, AdamW, RMSprop, Adagrad }))
  registerOptimizer(name, cls as unknown as OptimizerClass);

/** The optimizer living next to its parameters on their owner. */
class LocalOptimizer {
  private static lock: Promise<void> = Promise.resolve();
  private readonly optim: Optimizer;
  private readonly params: Tensor[];

  constructor(
    private readonly rrefs: RRef<Tensor>[],
    cls: OptimizerClass,
    opts: unknown,
  ) {
    this.params = rrefs.map((r) => r.localValue());
    this.optim = new cls(this.params, opts as never);
  }

  /** Steps with the gradients of `contextId` on this worker, serialised per worker (PyTorch's global lock). */
  step(contextId: bigint): Promise<void> {
    const run = LocalOptimizer.lock.then(() => {
      const grads = getGradients(contextId);
      const saved = this.params.map((p) => p.grad);
      this.params.forEach((p) => (p.grad = grads.get(p) ?? null));
      try {
        this.optim.step();
      } finally {
        this.params.forEach((p, i) => (p.grad = saved[i]!));
      }
    });
    LocalOptimizer.lock = run.catch(() => {});
    return run;
  }
}

register('_wiregrad.distOptim.create', (name: string, rrefs: RRef<Tensor>[], opts: unknown) => {
  const cls = classes.get(name);
  if (!cls)
    throw new DistAutogradError('OPTIMIZER', `optimizer '${name}' is not registered (registerOptimizer(name, class))`);
  return new LocalOptimizer(rrefs, cls, opts);
});
register('_wiregrad.distOptim.step', (opt: RRef<LocalOptimizer>, contextId: bigint) =>
  opt.localValue().step(contextId),
);

/**
 * PyTorch's DistributedOptimizer: parameters (RRefs) are grouped by owner, each owner builds
 * a local optimizer over its own parameters, and `step(contextId)` steps all owners at once
 * with the gradients that context accumulated there.
 */
export class DistributedOptimizer {
  private readonly remotes: RRef<LocalOptimizer>[];

  constructor(optimizerClass: { name: string }, params: RRef<Tensor>[], opts: unknown) {
    const name = [...classes.entries()].find(([, c]) => c === (optimizerClass as unknown))?.[0] ?? optimizerClass.name;
    const byOwner = new Map<number, RRef<Tensor>[]>();
    for (const p of params) byOwner.set(p.ownerId, [...(byOwner.get(p.ownerId) ?? []), p]);
    this.remotes = [...byOwner.entries()].map(([owner, rrefs]) =>
      remote<LocalOptimizer>(owner, '_wiregrad.distOptim.create', [name, rrefs, opts]),
    );
  }

  /** Waits until every owner has built its optimizer; rejects with "Error creating optimizer." otherwise. */
  async ready(): Promise<void> {
    try {
      await Promise.all(this.remotes.map((r) => r.getFuture().wait()));
    } catch (e) {
      throw new DistAutogradError('OPTIMIZER', `Error creating optimizer. ${(e as Error).message}`, { cause: e });
    }
  }

  async step(contextId: bigint): Promise<void> {
    retrieveContext(contextId);
    await this.ready();
    const results = await Promise.allSettled(
      this.remotes.map((r) => rpcAsync(r.ownerId, '_wiregrad.distOptim.step', [r, contextId]).wait()),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    const last = failed[failed.length - 1]?.reason as Error | undefined;
    if (last) throw new DistAutogradError('OPTIMIZER', `Error running optimizer. ${last.message}`, { cause: last });
  }
}
