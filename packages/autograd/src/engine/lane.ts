import type { Device } from '@wiregrad/tensor';
import { ReadyQueue } from './readyQueue.js';

/**
 * Note [Device lanes]
 * PyTorch runs one thread per device, started once (call_once) and shared by every
 * GraphTask, each draining that device's ReadyQueue; cpu work runs on the calling thread
 * from the GraphTask's own cpu queue. JS has one thread per isolate, so a device thread
 * becomes a *lane*: the device's ReadyQueue plus an async loop started on first use. In a
 * synchronous backward() the caller drains the lanes itself when its cpu queue is empty;
 * in backwardAsync() each lane drains its queue from its own loop and, on finishing a task
 * owned by another lane, pushes an empty wake-up task to the owner's cpu queue (PyTorch's
 * "wake up the owner" NodeTask). Pop order is the same in both: Note [Ready queue order].
 */
export class Lane {
  readonly queue = new ReadyQueue();
  started = false;
  constructor(readonly device: Device) {}
}

export const MAX_DEPTH = 60;
