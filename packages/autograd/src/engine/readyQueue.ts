import type { NodeTask } from './nodeTask.js';

/**
 * Note [Ready queue order]
 * PyTorch's CompareNodeTaskTime as a max-heap: shutdown tasks pop first, then empty wake-up
 * tasks, then the task of the deeper reentrant backward, then the node with the higher
 * sequenceNr (created later in the forward pass, so it runs earlier in backward).
 */
export function runsBefore(a: NodeTask, b: NodeTask): boolean {
  if (a.isShutdownTask !== b.isShutdownTask) return a.isShutdownTask;
  if ((a.fn === null) !== (b.fn === null)) return a.fn === null;
  if (a.fn === null || b.fn === null) return false;
  const da = a.getReentrantDepth();
  const db = b.getReentrantDepth();
  if (da !== db) return da > db;
  return a.fn.sequenceNr > b.fn.sequenceNr;
}

/** A binary heap of NodeTasks in the order of Note [Ready queue order]. */
export class ReadyQueue {
  private readonly heap: NodeTask[] = [];
  private waiters: (() => void)[] = [];

  get size(): number {
    return this.heap.length;
  }

  empty(): boolean {
    return this.heap.length === 0;
  }

  push(task: NodeTask): void {
    const h = this.heap;
    h.push(task);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!runsBefore(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  pop(): NodeTask | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < h.length && runsBefore(h[l]!, h[best]!)) best = l;
        if (r < h.length && runsBefore(h[r]!, h[best]!)) best = r;
        if (best === i) break;
        [h[i], h[best]] = [h[best]!, h[i]!];
        i = best;
      }
    }
    return top;
  }

  /** Resolves at the next push (for lanes that wait asynchronously). */
  nextPush(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
