import { type Tensor } from '@wiregrad/autograd';
import { type RRef, register, remote, rpcAsync } from '@wiregrad/rpc';
import { getGradients, retrieveContext } from '../api.js';
import { DistAutogradError } from '../errors.js';

/** What DistributedOptimizer needs of an optimizer (every optimizer of @wiregrad/nn/optim is one). */
export interface LocalOptimizerLike {
  step(): void;
}
type OptimizerClass = new (params: Tensor[], opts: never) => LocalOptimizerLike;

const classes = new Map<string, OptimizerClass>();

/** Makes an optimizer class usable by DistributedOptimizer (the built-in ones of @wiregrad/nn/optim need not be). */
export function registerOptimizer(name: string, cls: OptimizerClass): void {
  classes.set(name, cls);
}

/**
 * Note [DistributedOptimizer's optimizers]
 * @wiregrad/nn is an optional peer dependency of dist-autograd, as torch.distributed.optim sits
 * beside distributed autograd rather than under it: nothing loads it until a DistributedOptimizer
 * names one of its optimizers. Both sides name an optimizer by its registered name (a class
 * name can be minified away): the caller finds the one it was given among the registered classes,
 * then among @wiregrad/nn/optim's built-in ones; the owner looks the name up the same way. Each
 * side loads @wiregrad/nn/optim at most once, and only when a name is not registered. (Why the
 * optimizers are a subpath of nn: Note [nn and optim in one package] in nn's README.)
 */
let builtIns: Promise<Map<string, OptimizerClass>> | null = null;
function builtInOptimizers(): Promise<Map<string, OptimizerClass>> {
  builtIns ??= import('@wiregrad/nn/optim').then(
    ({ SGD, Adam, AdamW, RMSprop, Adagrad }) =>
      new Map<string, OptimizerClass>(Object.entries({ SGD, Adam, AdamW, RMSprop, Adagrad })),
    () => new Map<string, OptimizerClass>(), // not installed: only registered optimizers exist
  );
  return builtIns;
}

/** The name the owners know `cls` by (Note [DistributedOptimizer's optimizers]). */
async function nameOf(cls: { name: string }): Promise<string> {
  for (const [name, c] of classes) if (c === cls) return name;
  for (const [name, c] of await builtInOptimizers()) if (c === cls) return name;
  return cls.name;
}

/** The class named `name` on this owner (Note [DistributedOptimizer's optimizers]). */
async function classNamed(name: string): Promise<OptimizerClass | undefined> {
  return classes.get(name) ?? (await builtInOptimizers()).get(name);
}

/** The optimizer living next to its parameters on their owner. */
class LocalOptimizer {
  private static lock: Promise<void> = Promise.resolve();
  private readonly optim: LocalOptimizerLike;
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

register('_wiregrad.distOptim.create', async (name: string, rrefs: RRef<Tensor>[], opts: unknown) => {
  const cls = await classNamed(name);
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
  private readonly remotes: Promise<RRef<LocalOptimizer>[]>;

  constructor(optimizerClass: { name: string }, params: RRef<Tensor>[], opts: unknown) {
    const byOwner = new Map<number, RRef<Tensor>[]>();
    for (const p of params) byOwner.set(p.ownerId, [...(byOwner.get(p.ownerId) ?? []), p]);
    this.remotes = nameOf(optimizerClass).then((name) =>
      [...byOwner.entries()].map(([owner, rrefs]) =>
        remote<LocalOptimizer>(owner, '_wiregrad.distOptim.create', [name, rrefs, opts]),
      ),
    );
    this.remotes.catch(() => {}); // surfaced by ready() and step()
  }

  /** Waits until every owner has built its optimizer; rejects with "Error creating optimizer." otherwise. */
  async ready(): Promise<void> {
    try {
      await Promise.all((await this.remotes).map((r) => r.getFuture().wait()));
    } catch (e) {
      throw new DistAutogradError('OPTIMIZER', `Error creating optimizer. ${(e as Error).message}`, { cause: e });
    }
  }

  async step(contextId: bigint): Promise<void> {
    retrieveContext(contextId);
    await this.ready();
    const results = await Promise.allSettled(
      (await this.remotes).map((r) => rpcAsync(r.ownerId, '_wiregrad.distOptim.step', [r, contextId]).wait()),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    const last = failed[failed.length - 1]?.reason as Error | undefined;
    if (last) throw new DistAutogradError('OPTIMIZER', `Error running optimizer. ${last.message}`, { cause: last });
  }
}
