/** At most this many answers are kept per caller; beyond it the oldest answer goes (a caller that never acknowledges). */
const MAX_KEPT = 4096;

/** What to do with a request: serve it, drop it (stale or still running), or send this kept answer again. */
export type Admission = 'serve' | 'drop' | Uint8Array[];

/**
 * The callee's side of Note [Exactly-once calls] for one caller: which of its requests are
 * running, the answers it has not acknowledged yet, and its watermark (every request below it
 * was answered and the answer arrived).
 */
export class ServedRequests {
  /** 'running', or the answer's frames */
  private readonly entries = new Map<number, 'running' | Uint8Array[]>();
  private acked = 0;

  /** Request `id` arrived (with the caller's watermark `acked`): serve it only the first time. */
  admit(id: number, acked: number): Admission {
    this.ack(acked);
    if (id < this.acked) return 'drop';
    const entry = this.entries.get(id);
    if (entry === undefined) {
      this.entries.set(id, 'running');
      return 'serve';
    }
    return entry === 'running' ? 'drop' : entry;
  }

  /** The answer to request `id`, kept until the caller's watermark passes it. */
  answered(id: number, frames: Uint8Array[]): void {
    if (id < this.acked) {
      this.entries.delete(id);
      return;
    }
    this.entries.set(id, frames);
    if (this.entries.size <= MAX_KEPT) return;
    // running entries stay: forgetting one would serve its resent copy a second time
    for (const [oldest, entry] of this.entries) if (entry !== 'running') return void this.entries.delete(oldest);
  }

  /** The caller's watermark moved: forget what lies below it. */
  ack(acked: number): void {
    if (acked <= this.acked) return;
    this.acked = acked;
    for (const [id, entry] of this.entries) {
      if (id >= acked) break;
      if (entry !== 'running') this.entries.delete(id);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
