import { RpcError, timeoutError } from '../errors.js';
import type { Message } from '../messages/message.js';
import { MessageType, messageKind, messageTypeName } from '../messages/messageType.js';
import { Deadlines } from './deadlines.js';
import type { Outstanding } from './outstanding.js';
import { remoteError } from './remoteError.js';
import type { WorkerInfo } from './workerInfo.js';

interface Pending {
  to: WorkerInfo;
  /** where the request waits to be sent again until it settles (Note [Exactly-once calls]) */
  out: Outstanding | undefined;
  resolve: (m: Message) => void;
  reject: (e: unknown) => void;
}

/**
 * The calls this worker waits on, by message id: each settles once, with its response, its
 * EXCEPTION, its timeout (Note [Remote errors], PyTorch's timeout text; Note [One timer per
 * timeout]) or its peer's loss.
 * A late answer to a call that already settled is dropped.
 */
export class PendingCalls {
  private nextId = 1;
  private readonly calls = new Map<number, Pending>();
  private readonly deadlines = new Deadlines(
    (id) => this.calls.has(id),
    (id, ms) => this.fail(id, timeoutError(ms)),
  );

  get size(): number {
    return this.calls.size;
  }

  /** A fresh id and the promise of its answer; `timeoutMs` 0 waits forever. */
  open(to: WorkerInfo, timeoutMs: number, out?: Outstanding): { id: number; answer: Promise<Message> } {
    const id = this.nextId++;
    const answer = new Promise<Message>((resolve, reject) => this.calls.set(id, { to, out, resolve, reject }));
    if (timeoutMs > 0) this.deadlines.add(id, timeoutMs);
    return { id, answer };
  }

  /** Settles the call a message from `from` answers (false: none waits for it); a request or UNKNOWN sent as an answer fails it. */
  settle(msg: Message, from: WorkerInfo, onProtocolError: (e: RpcError) => void): boolean {
    const p = this.take(msg.id);
    if (!p) return false;
    if (msg.type === MessageType.EXCEPTION) {
      p.reject(remoteError(msg.payload, from));
      return true;
    }
    switch (messageKind(msg.type)) {
      case 'response':
        p.resolve(msg);
        break;
      case 'request':
      case 'exception': // handled above
      case 'unknown': {
        const e = new RpcError(
          'PROTOCOL',
          `${from} answered with ${messageTypeName(msg.type)}, which is not a response`,
        );
        onProtocolError(e);
        p.reject(e);
      }
    }
    return true;
  }

  fail(id: number, error: unknown): void {
    this.take(id)?.reject(error);
  }

  /** Fails every call waiting on `to` (all calls when `to` is null). */
  failAll(to: WorkerInfo | null, error: () => unknown): void {
    for (const [id, p] of [...this.calls]) if (to === null || p.to === to) this.fail(id, error());
  }

  private take(id: number): Pending | undefined {
    const p = this.calls.get(id);
    if (!p) return undefined;
    this.calls.delete(id);
    p.out?.delete(id);
    return p;
  }
}
