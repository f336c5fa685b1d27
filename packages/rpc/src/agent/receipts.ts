import { encodeMessage } from '../messages/message.js';
import { MessageType } from '../messages/messageType.js';
import type { Listener } from './sockets.js';

/** How long a receipt waits for others to share its message, unless its NOTIFY asked to confirm (Note [One-way messages]). */
export const RECEIPT_DELAY_MS = 20;

/** What ServedRequests keeps for a NOTIFY that ran: a copy of it gets a receipt again, never a second run. */
export const RECEIVED: readonly Uint8Array[] = Object.freeze([]);

/** The frames of a NOTIFY_RECEIVED listing `ids`. */
export function receiptFrames(ids: number[]): Uint8Array[] {
  return encodeMessage({ type: MessageType.NOTIFY_RECEIVED, id: 0, payload: { ids } }, { deviceMap: {}, peer: -1 });
}

/**
 * Note [One-way messages]
 * A call is two messages, a request and its answer; a chunk of a collective needs one: it has
 * to reach its receiver's mailbox, and nothing comes back. A NOTIFY is a request that gets no
 * answer. The callee runs its registered function at once, in the receive loop (it must be
 * synchronous and cheap: a mailbox drop; a throw is logged there, the caller never hears of
 * it), and owes the caller a receipt. Receipts are batched: NOTIFY_RECEIVED lists the ids that
 * arrived since the last one and goes RECEIPT_DELAY_MS later (one message for a burst of
 * chunks), or at the end of the turn when a NOTIFY asked to `confirm` (its caller waits for
 * it: e.g. a collective's last chunk, whose memory the caller may write once the collective
 * returns). Until its receipt arrives a NOTIFY is outstanding like any request (Note
 * [Exactly-once calls]): sent again after a heartbeat interval, run once (a copy gets its
 * receipt again), and below the caller's watermark only once received. So a connection reset
 * loses no chunk and runs none twice, at one message per chunk plus a receipt per burst.
 */
export class Receipts {
  private ids: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  private urgent = false;
  private via: Listener | null = null;
  private identity: Uint8Array | null = null;

  /** `send` delivers a NOTIFY_RECEIVED of `ids` on `via` to the caller's `identity`. */
  constructor(private readonly send: (ids: number[], via: Listener, identity: Uint8Array) => void) {}

  /** NOTIFY `id` arrived on `via` from `identity`: its receipt goes soon, or at the end of this turn if `confirm`. */
  owe(id: number, confirm: boolean, via: Listener, identity: Uint8Array): void {
    this.ids.push(id);
    this.via = via;
    this.identity = identity;
    if (confirm && !this.urgent) {
      this.urgent = true;
      queueMicrotask(() => this.flush());
    } else if (!this.timer && !this.urgent) {
      this.timer = setTimeout(() => this.flush(), RECEIPT_DELAY_MS).unref();
    }
  }

  /** Sends every owed receipt now. */
  flush(): void {
    this.stop();
    if (this.ids.length === 0 || !this.via || !this.identity) return;
    const ids = this.ids;
    this.ids = [];
    this.send(ids, this.via, this.identity);
  }

  /** Cancels the pending send (the peer is gone or the agent closes). */
  stop(): void {
    this.urgent = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
