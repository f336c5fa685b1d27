import type { Dealer, Router } from 'zeromq';

/**
 * zeromq.js allows one pending send per socket ("Socket is busy writing"), so every socket
 * sends through a queue: each send starts when the previous one has been handed to ZeroMQ.
 */
export class SendQueue {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly socket: Router | Dealer) {}

  send(frames: (Uint8Array | string)[]): Promise<void> {
    const next = this.tail.then(() => this.socket.send(frames));
    this.tail = next.catch(() => {});
    return next;
  }

  /** Resolves once everything queued so far has been handed to ZeroMQ. */
  drain(): Promise<void> {
    return this.tail;
  }
}
