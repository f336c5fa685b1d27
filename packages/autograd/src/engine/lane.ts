import { platform } from '#platform';
import type { Device } from '@wiregrad/tensor';
import type { NodeTask } from './nodeTask.js';
import { ReadyQueue } from './readyQueue.js';

/**
 * Note [Device lanes]
 * PyTorch runs one thread per device, started once (call_once) and shared by every
 * GraphTask, each draining that device's ReadyQueue; cpu work runs on the calling thread
 * from the GraphTask's own cpu queue. JS has one thread per isolate, so a device thread
 * becomes a *lane*: the device's ReadyQueue plus an async loop started once, on the first
 * backwardAsync(). In a synchronous backward() the caller drains the lanes itself when its
 * cpu queue is empty (it cannot wait for a loop). In backwardAsync() each lane drains its
 * queue from its own loop, and when a lane completes a GraphTask its owner waits for, it
 * pushes an empty wake-up NodeTask to the owner's cpu queue, as PyTorch's device threads do.
 * Pop order is the same everywhere: see Note [Ready queue order].
 */
export class Lane {
  readonly queue = new ReadyQueue();
  private started = false;
  constructor(readonly device: Device) {}

  /** Starts the lane's loop once; `run` evaluates one task (awaited before the next pop). */
  start(run: (task: NodeTask) => void | Promise<void>): void {
    if (this.started) return;
    this.started = true;
    const loop = async (): Promise<void> => {
      for (;;) {
        const nt = this.queue.pop();
        if (!nt) {
          await this.queue.nextPush();
          continue;
        }
        await run(nt);
        // yield between tasks so the owners' loops and other lanes interleave
        await platform.nextMacrotask();
      }
    };
    void loop();
  }
}

/** PyTorch's MAX_DEPTH: nested (reentrant) executions on one stack before a hand-off. See Note [Reentrant backward]. */
export const MAX_DEPTH = 60;
