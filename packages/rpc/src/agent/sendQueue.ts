import type { Dealer, Router } from 'zeromq';
import { MAX_BATCH, batchFrames, isBatch } from '../messages/batch.js';
import { toWire } from '../messages/textFrames.js';

interface OpenBatch {
  messages: Uint8Array[];
  sent: Promise<void>;
}

/**
 * zeromq.js allows one pending send per socket ("Socket is busy writing"), so every socket
 * sends through a queue: each send starts when the previous one has been handed to ZeroMQ.
 * Single-frame messages for one destination that queue up meanwhile (or in the same turn)
 * leave as one batch (Note [Batched messages]); a message with tensor frames closes its
 * destination's open batch, so each destination still receives messages in send order.
 */
export class SendQueue {
  private tail: Promise<void> = Promise.resolve();
  /** batches not yet handed to ZeroMQ, by destination (a ROUTER's identity; '' for a DEALER) */
  private readonly open = new Map<string, OpenBatch>();
  private lastIdentity: Uint8Array | undefined;
  private lastKey = '';

  /** `batch` false sends every message as its own ZeroMQ message (backendOptions.batchMessages) */
  constructor(
    private readonly socket: Router | Dealer,
    private readonly batch = true,
  ) {}

  /** Queues one message (its frames) for `identity` (ROUTER sockets) or the connected peer. */
  send(frames: Uint8Array[], identity?: Uint8Array): Promise<void> {
    const key = this.keyOf(identity);
    if (frames.length !== 1 || !this.batch) {
      this.open.delete(key);
      return this.enqueue(frames, identity);
    }
    const batch = this.open.get(key);
    if (batch && batch.messages.length < MAX_BATCH) {
      batch.messages.push(frames[0]!);
      return batch.sent;
    }
    const fresh: OpenBatch = { messages: [frames[0]!], sent: Promise.resolve() };
    this.open.set(key, fresh);
    fresh.sent = this.enqueue(() => {
      if (this.open.get(key) === fresh) this.open.delete(key);
      return fresh.messages.length === 1 ? fresh.messages : batchFrames(fresh.messages);
    }, identity);
    return fresh.sent;
  }

  /** The batch key of a destination; the answers to one received batch share their identity object. */
  private keyOf(identity: Uint8Array | undefined): string {
    if (identity === undefined) return '';
    if (identity !== this.lastIdentity) {
      this.lastIdentity = identity;
      this.lastKey = Buffer.from(identity.buffer, identity.byteOffset, identity.byteLength).toString('latin1');
    }
    return this.lastKey;
  }

  /** Resolves once everything queued so far has been handed to ZeroMQ. */
  drain(): Promise<void> {
    return this.tail;
  }

  /** Sends a message's frames after everything queued before them, its first frame as text where that is cheaper (Note [Small frames travel as text]). */
  private enqueue(frames: Uint8Array[] | (() => Uint8Array[]), identity: Uint8Array | undefined): Promise<void> {
    const next = this.tail.then(() => {
      const parts = typeof frames === 'function' ? frames() : frames;
      const wire: (Uint8Array | string)[] = identity === undefined ? [] : [identity];
      // a batch means the loop is busy sending: its wake-up is shared, transcoding would not be
      wire.push(isBatch(parts[0]!) ? parts[0]! : toWire(parts[0]!));
      for (let i = 1; i < parts.length; i++) wire.push(parts[i]!);
      return this.socket.send(wire);
    });
    this.tail = next.catch(() => {});
    return next;
  }
}
