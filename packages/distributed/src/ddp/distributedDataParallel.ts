import { type Tensor, detach, isGradEnabled } from '@wiregrad/autograd';
import { Module } from '@wiregrad/nn';
import { DistributedError } from '../errors.js';
import { type ProcessGroup, groupOf } from '../processGroup.js';
import { DEFAULT_FIRST_BUCKET_BYTES, computeBucketAssignment } from './buckets.js';
import { Reducer } from './reducer.js';
import { DDPSink } from './sink.js';
import { syncTensors } from './syncModuleStates.js';

export interface DistributedDataParallelOptions {
  /** bucket size in MiB (default 25) */
  bucketCapMb?: number;
  /** mark the parameters a forward's outputs cannot reach as ready at once (default false) */
  findUnusedParameters?: boolean;
  /** keep rank 0's buffers (BatchNorm running stats) on every rank (default true; Note [Buffers after backward]) */
  broadcastBuffers?: boolean;
  /** the group to average over (default: the world) */
  processGroup?: ProcessGroup;
  /**
   * each averaged `.grad` is a view of its gradient bucket rather than a copy (PyTorch's
   * gradient_as_bucket_view; default false): one copy of the gradients fewer in memory and one
   * pass fewer per step (Note [Gradients as bucket views])
   */
  gradientAsBucketView?: boolean;
}

/** Every tensor in a forward's output (a tensor, or arrays and plain objects of them). */
function tensorsIn(out: unknown, into: Tensor[] = []): Tensor[] {
  if (out !== null && typeof out === 'object') {
    if ('storage' in out && 'shape' in out) into.push(out as Tensor);
    else if (Array.isArray(out)) for (const x of out) tensorsIn(x, into);
    else if (Object.getPrototypeOf(out) === Object.prototype) for (const x of Object.values(out)) tensorsIn(x, into);
  }
  return into;
}

/** `out` with each tensor that requires grad replaced by `swap(t)`. */
function mapTensors(out: unknown, swap: (t: Tensor) => Tensor): unknown {
  if (out !== null && typeof out === 'object') {
    if ('storage' in out && 'shape' in out) return (out as Tensor).requiresGrad ? swap(out as Tensor) : out;
    if (Array.isArray(out)) return out.map((x) => mapTensors(x, swap));
    if (Object.getPrototypeOf(out) === Object.prototype)
      return Object.fromEntries(Object.entries(out).map(([k, x]) => [k, mapTensors(x, swap)]));
  }
  return out;
}

/**
 * torch.nn.parallel.DistributedDataParallel: wraps `module` so that every rank's gradients are
 * averaged across the process group during backward (Note [Reducer]). `await ddp.ready` before
 * the first forward (rank 0's parameters and buffers are broadcast: a constructor cannot
 * await), and `await loss.backwardAsync()` (Note [DDP needs backwardAsync]). `module` is a
 * child, so `stateDict()` keys are `module.<name>`, as in PyTorch.
 *
 * Note [Buffers after backward]
 * PyTorch broadcasts rank 0's buffers at the start of every forward; a forward here is
 * synchronous and cannot wait for the network. Buffers change only in forward, so they are
 * broadcast at the end of each synced backward instead (before backwardAsync resolves), and at
 * `ready`: the next forward sees rank 0's buffers, as in PyTorch, in the usual
 * forward-backward loop. A forward with no synced backward after it does not resync them.
 */
export class DistributedDataParallel<In extends unknown[] = [Tensor], Out = Tensor> extends Module<In, Out> {
  readonly module: Module<In, Out>;
  /** resolves once rank 0's parameters and buffers are on every rank */
  readonly ready: Promise<void>;
  private isReady = false;
  private syncEnabled = true;
  private readonly reducer: Reducer;

  constructor(module: Module<In, Out>, opts: DistributedDataParallelOptions = {}) {
    super();
    if (!(module instanceof Module))
      throw new DistributedError('INVALID_ARGUMENT', 'DistributedDataParallel wraps an nn Module');
    const {
      bucketCapMb = 25,
      findUnusedParameters = false,
      broadcastBuffers = true,
      gradientAsBucketView = false,
    } = opts;
    if (!(bucketCapMb > 0))
      throw new DistributedError('INVALID_ARGUMENT', `bucketCapMb must be positive, got ${bucketCapMb}`);
    const group = groupOf(opts.processGroup);
    const src = group.ranks[0]!;
    this.module = module;
    const params = module.parameters().filter((p) => p.requiresGrad);
    const buckets = computeBucketAssignment(params, bucketCapMb * 1024 * 1024, DEFAULT_FIRST_BUCKET_BYTES);
    const syncBuffers = () =>
      broadcastBuffers && group.size() > 1 ? syncTensors(module.buffers(), src, group) : Promise.resolve();
    this.reducer = new Reducer(params, buckets, group, findUnusedParameters, syncBuffers, gradientAsBucketView);
    this.ready = syncTensors([...module.parameters(), ...module.buffers()], src, group).then(() => {
      this.isReady = true;
    });
    this.ready.catch(() => {}); // the error reaches whoever awaits ready, or the first forward
  }

  forward(...inputs: In): Out {
    if (!this.isReady)
      throw new DistributedError(
        'NOT_READY',
        "DistributedDataParallel's forward() before its parameters were broadcast from rank 0: await ddp.ready first",
      );
    const out = this.module.call(...inputs);
    if (!this.syncEnabled || !isGradEnabled()) return out;
    const outputs = tensorsIn(out).filter((t) => t.requiresGrad);
    if (outputs.length === 0) return out;
    this.reducer.prepareForBackward(outputs);
    const sink = new DDPSink(() => this.reducer.beginBackward(), outputs);
    return mapTensors(out, (t) => {
      const view = detach(t);
      sink.attach(view);
      return view;
    }) as Out;
  }

  /**
   * Runs `fn` without gradient sync (PyTorch's no_sync()): its forwards' backwards accumulate
   * into `.grad` locally, and the next synced backward averages the accumulated sums. An async
   * `fn` keeps sync off until it settles.
   */
  noSync<T>(fn: () => T): T {
    const previous = this.syncEnabled;
    this.syncEnabled = false;
    let result: T;
    try {
      result = fn();
    } catch (e) {
      this.syncEnabled = previous;
      throw e;
    }
    if (result instanceof Promise) {
      return result.finally(() => (this.syncEnabled = previous)) as T;
    }
    this.syncEnabled = previous;
    return result;
  }
}
