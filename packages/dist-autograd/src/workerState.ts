import type { WorkerInfo } from '@wiregrad/rpc';
import { DistAutogradContainer } from './context/container.js';
import { startExpiry } from './context/expiry.js';
import { Releases } from './context/releases.js';
import { DistAutogradError } from './errors.js';
import type { BackwardPass, PassHost } from './pass/backwardPass.js';

/** How long a context release waits for a message to ride on (Note [Releases ride on the next message]). */
let releaseWaitMs = 10;

/**
 * Distributed autograd's state on one worker, made when the worker joins a group (initRpc,
 * PyTorch's dist_autograd._init) and disposed when it leaves (shutdown): the contexts
 * (PyTorch's DistAutogradContainer), the context releases waiting for a message to ride on,
 * the backward pass running in each context, and the expiry sweeper.
 */
export class DistAutogradWorker implements PassHost {
  readonly container: DistAutogradContainer;
  readonly releases: Releases;
  /** the backward pass running in each context on this worker, by context id */
  readonly passes = new Map<bigint, BackwardPass>();
  private readonly stopExpiry: () => void;

  constructor(readonly workerId: number) {
    this.container = new DistAutogradContainer(workerId);
    this.releases = new Releases(this.container, releaseWaitMs);
    this.stopExpiry = startExpiry(this.container, (id) => this.passes.has(id));
  }

  takeReleases(to: number): bigint[] | undefined {
    return this.releases.take(to);
  }

  passEnded(pass: BackwardPass): void {
    if (this.passes.get(pass.ctx.contextId) === pass) this.passes.delete(pass.ctx.contextId);
  }

  /**
   * Note [A worker that left]
   * When a worker leaves the group or dies (Note [Membership] in @wiregrad/rpc), every survivor
   * at once:
   * - drops the contexts that worker created: nobody would release them (pytorch#26379), and a
   *   pass running in one is ended, so its engine run is freed;
   * - forgets the worker in its other contexts and the releases waiting for it (Note [Releases
   *   ride on the next message]), so cleanup and aborts never wait on it.
   * A backward pass that waits on the worker fails by itself: its gradient or mark RPCs to the
   * worker reject with PEER_DISCONNECTED naming it, the origin reports "Error on Node <id>: lost
   * the connection to WorkerInfo(...)" and aborts the pass everywhere (Note [Failed passes]).
   */
  forgetWorker(info: WorkerInfo): void {
    this.releases.forget(info.id);
    for (const ctx of [...this.container.contexts.values()]) {
      if (ctx.originWorkerId === info.id && this.workerId !== info.id) {
        this.container.take(ctx.contextId);
        this.passes.get(ctx.contextId)?.end();
      } else {
        ctx.forgetWorker(info.id);
      }
    }
  }

  /** The worker left its group: no more sweeps, and releases still waiting are dropped. */
  dispose(): void {
    this.stopExpiry();
    this.releases.dispose();
  }
}

let worker: DistAutogradWorker | null = null;

/** Made with the rank before the RPC agent serves (the onInit hook, Note [RPC autograd hooks]). */
export function initWorker(rank: number): void {
  worker?.dispose();
  worker = new DistAutogradWorker(rank);
}

/** The onShutdown hook: the worker's state goes with its group. */
export function disposeWorker(): void {
  worker?.dispose();
  worker = null;
}

export function getWorker(): DistAutogradWorker {
  if (!worker)
    throw new DistAutogradError('NOT_INITIALIZED', 'Distributed autograd is not initialized: call initRpc first');
  return worker;
}

export function maybeWorker(): DistAutogradWorker | null {
  return worker;
}

/** This worker's DistAutogradContainer (PyTorch's DistAutogradContainer::getInstance). */
export function getContainer(): DistAutogradContainer {
  return getWorker().container;
}

/** How long a context release waits for a message to ride on before it is sent on its own (default 10 ms). */
export function setReleaseWait(ms: number): void {
  releaseWaitMs = ms;
  worker?.releases.setWait(ms);
}
