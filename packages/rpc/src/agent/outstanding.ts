/**
 * Note [Exactly-once calls]
 * ZeroMQ reconnects after a TCP connection resets, but what was in flight on it is gone: a
 * request, or its answer. So a caller keeps each request's frames until its answer arrives
 * (Outstanding) and sends it again when no answer came for one heartbeat interval, then two,
 * four (and every four after that, or the dead-peer window if shorter); only heartbeats decide that a peer is dead. The callee
 * serves each request id of a caller once (ServedRequests): a copy of a running request is
 * dropped, a copy of an answered one gets the kept answer again. A caller's watermark, in every
 * header it sends (Note [Message framing]), says that every request of its below that id was
 * answered (or given up): the callee forgets those answers and drops late copies of them. A
 * caller with no request to send tells it in an ACK after ACK_DELAY_MS. Costs: one map entry per
 * call on each side, the answer's frames kept until the caller's next message, and a long call
 * has its request sent again at 1, 2, 4, 4... intervals (its copies are dropped unread beyond the
 * header). A member that leaves or dies takes both tables with it; one that rejoins is a new
 * member with empty ones (Note [Membership]), so ids of an old life never meet a new one.
 */

/** A request sent to one peer and not answered yet: its frames, to send again (Note [Exactly-once calls]). */
interface Sent {
  frames: Uint8Array[];
  sentAt: number;
  /** times sent so far; the wait before the next resend doubles with each */
  sends: number;
}

/**
 * The requests this worker sent to one peer that have no answer yet, in id order (ids only grow,
 * and a request is added when it is sent). See Note [Exactly-once calls].
 */
export class Outstanding {
  private readonly sent = new Map<number, Sent>();
  private highest = 0;

  get size(): number {
    return this.sent.size;
  }

  add(id: number, frames: Uint8Array[], now: number): void {
    this.sent.set(id, { frames, sentAt: now, sends: 1 });
    this.highest = id;
  }

  /** The request has its answer, or its caller gave up on it (timeout, shutdown). */
  delete(id: number): void {
    this.sent.delete(id);
  }

  /** Every request of this worker to the peer with a lower id has been answered or given up. */
  watermark(): number {
    for (const id of this.sent.keys()) return id;
    return this.highest + 1;
  }

  /**
   * The frames of every request unanswered for `baseMs * 2^(sends-1)` (at most `capMs`) since it
   * was last sent, marked as sent again at `now`.
   */
  due(now: number, baseMs: number, capMs: number): Uint8Array[][] {
    const out: Uint8Array[][] = [];
    for (const s of this.sent.values()) {
      if (now - s.sentAt < Math.min(capMs, baseMs * 2 ** (s.sends - 1))) continue;
      s.sentAt = now;
      s.sends++;
      out.push(s.frames);
    }
    return out;
  }

  clear(): void {
    this.sent.clear();
  }
}
