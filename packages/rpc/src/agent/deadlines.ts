const MIN_LIMIT = 1024;

interface Queue {
  ids: number[];
  at: number[];
  /** index of the first live entry of `ids`/`at` */
  head: number;
  /** live entries (settled or not) that trigger a compaction */
  limit: number;
  timer: NodeJS.Timeout | null;
}

/**
 * Note [One timer per timeout]
 * A setTimeout + clearTimeout per call cost about as much as the rest of a small call's
 * bookkeeping. Calls with the same timeout expire in the order they were opened, so the calls
 * of one timeout value form a FIFO queue whose head expires first, and one Node timer per
 * distinct timeout value, armed for the first head still pending, serves them all. Settled
 * calls are not removed one by one: heads that settled are skipped, and a queue that doubled
 * since its last compaction (a slow call at the head while many others settle) drops its
 * settled entries, so memory stays proportional to the calls pending, at O(1) amortized.
 * The timers are unref'd: a timer may outlive the call it was armed for, and the agent's open
 * sockets are what keep a worker alive while calls are pending.
 */
export class Deadlines {
  private readonly queues = new Map<number, Queue>();

  constructor(
    /** whether a call is still waiting for its answer */
    private readonly isPending: (id: number) => boolean,
    private readonly expire: (id: number, timeoutMs: number) => void,
  ) {}

  /** Expires call `id` after `timeoutMs` (> 0) unless it settled by then. */
  add(id: number, timeoutMs: number): void {
    let q = this.queues.get(timeoutMs);
    if (!q) this.queues.set(timeoutMs, (q = { ids: [], at: [], head: 0, limit: MIN_LIMIT, timer: null }));
    this.dropSettled(q);
    q.ids.push(id);
    q.at.push(performance.now() + timeoutMs);
    if (!q.timer) this.arm(q, timeoutMs);
  }

  private arm(q: Queue, timeoutMs: number): void {
    this.dropSettled(q);
    if (q.head === q.ids.length) {
      this.queues.delete(timeoutMs);
      return;
    }
    q.timer = setTimeout(() => this.fire(q, timeoutMs), Math.max(0, q.at[q.head]! - performance.now())).unref();
  }

  private fire(q: Queue, timeoutMs: number): void {
    q.timer = null;
    const now = performance.now();
    while (q.head < q.ids.length && q.at[q.head]! <= now) {
      const id = q.ids[q.head++]!;
      if (this.isPending(id)) this.expire(id, timeoutMs);
    }
    this.arm(q, timeoutMs);
  }

  /** Skips settled heads; compacts a queue that grew past twice its size after the last compaction. */
  private dropSettled(q: Queue): void {
    while (q.head < q.ids.length && !this.isPending(q.ids[q.head]!)) q.head++;
    if (q.ids.length - q.head <= q.limit && (q.head < MIN_LIMIT || 2 * q.head < q.ids.length)) return;
    const ids: number[] = [];
    const at: number[] = [];
    for (let i = q.head; i < q.ids.length; i++) {
      if (!this.isPending(q.ids[i]!)) continue;
      ids.push(q.ids[i]!);
      at.push(q.at[i]!);
    }
    Object.assign(q, { ids, at, head: 0, limit: Math.max(MIN_LIMIT, 2 * ids.length) });
  }
}
