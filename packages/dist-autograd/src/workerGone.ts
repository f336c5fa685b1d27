import type { WorkerInfo } from '@wiregrad/rpc';
import { forgetReleases } from './cleanup.js';
import { maybeContainer } from './context/container.js';
import { finishGraphTask } from './engine/backwardPass.js';

/**
 * Note [A worker that left]
 * When a worker leaves the group or dies (Note [Membership] in @wiregrad/rpc), every survivor
 * at once:
 * - drops the contexts that worker created: nobody would release them (pytorch#26379), and a
 *   pass running in one is ended, so its GraphTask is freed;
 * - forgets the worker in its other contexts and the releases waiting for it (Note [Releases
 *   ride on the next message]), so cleanup and aborts never wait on it.
 * A backward pass that waits on the worker fails by itself: its gradient or mark RPCs to the
 * worker reject with PEER_DISCONNECTED naming it, the origin reports "Error on Node <id>: lost
 * the connection to WorkerInfo(...)" and aborts the pass everywhere (Note [Failed passes]).
 */
export function forgetWorker(info: WorkerInfo): void {
  forgetReleases(info.id);
  const container = maybeContainer();
  if (!container) return;
  for (const ctx of [...container.contexts.values()]) {
    if (ctx.originWorkerId === info.id && container.workerId !== info.id) {
      container.take(ctx.contextId);
      const task = ctx.pass?.graphTask;
      ctx.pass = null;
      if (task && !task.completed) finishGraphTask(task);
    } else {
      ctx.forgetWorker(info.id);
    }
  }
}
