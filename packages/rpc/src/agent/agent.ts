import { type Listener, openRouter } from './sockets.js';
import { type LocalEndpoint, ipcAddress } from './localTransport.js';
import { RpcError } from '../errors.js';
import {
  type Header,
  decodeHeader,
  decodeMessage,
  encodeMessage,
  readAcked,
  signedBy,
  type OutgoingMessage,
} from '../messages/message.js';
import { pairKey } from '../auth/keys.js';
import { ticketValid } from '../auth/ticket.js';
import { MessageType, messageKind, messageTypeName } from '../messages/messageType.js';
import { endOfTurn } from './endOfTurn.js';
import { type Peer, checkSize } from './peer.js';
import { RECEIVED } from './receipts.js';
import type { WorkerRecord } from '../rendezvous/store.js';
import { exceptionPayload } from './remoteError.js';
import { receiveEach } from './receiveEach.js';
import { SendQueue } from './sendQueue.js';
import type { WorkerInfo } from './workerInfo.js';
import { AgentCore } from './agentCore.js';

export type { AgentAuth, AgentOptions, CurveKeys, Handler, Handlers } from './options.js';
export type { PeerSpec } from './peer.js';
export type { LocalEndpoint } from './localTransport.js';

/**
 * Note [ZeroMQ agent]
 * One ROUTER per worker receives requests and answers them to the caller's identity; one
 * DEALER per peer (routingId = this worker's name) sends requests and receives responses.
 * Each socket has a receive loop (Note [Receive loops hold no message]); every frame set is decoded defensively
 * (Note [Message framing]) and dispatched on its MessageType. Requests are served at most
 * `numWorkerThreads` at a time; a request that fails answers EXCEPTION with the same id.
 * A request holds its slot until it answers, nested calls it awaits included: like sync UDFs
 * on PyTorch's thread pool, chains of nested calls that need more than numWorkerThreads
 * slots on one worker at once wait for each other until their timeouts (raise it for them).
 * Peers come and go (Note [Membership]); a dead or departed peer's pending and new calls fail
 * with PEER_DISCONNECTED (Note [Peer liveness]). `close()` closes every socket (Note
 * [Teardown never aborts]).
 */
export class Agent extends AgentCore {
  async bind(address: string): Promise<string> {
    try {
      await this.router.bind(address);
    } catch (e) {
      throw new RpcError('INVALID_ARGUMENT', `cannot listen on ${address}: ${(e as Error).message}`);
    }
    this.address = this.router.lastEndpoint ?? address;
    void this.serveLoop({ router: this.router, queue: this.routerQueue });
    if (this.opts.ipcDir) await this.bindLocal(this.opts.ipcDir);
    return this.address;
  }

  /** Also listens on a Unix socket in `dir` for peers on this machine; without it, TCP only. */
  private async bindLocal(dir: string): Promise<void> {
    // tracked from the start: close() closes it whenever it comes (Note [Teardown never aborts])
    const router = openRouter(this.context, this.opts, true);
    const local = (this.local = { router, queue: new SendQueue(router, this.opts.batchMessages) });
    try {
      await local.router.bind(ipcAddress(dir));
    } catch {
      // a path too long, a full disk, or closed meanwhile: peers take TCP
      this.local = null;
      local.router.close();
      return;
    }
    if (!this.closed) void this.serveLoop(local);
  }

  /** Where peers on this machine reach this worker (null: TCP only). */
  get localEndpoint(): LocalEndpoint | null {
    const address = this.local?.router.lastEndpoint;
    return address ? { host: this.host, address } : null;
  }

  private async serveLoop(via: Listener): Promise<void> {
    try {
      // See Note [Receive loops hold no message]
      await receiveEach(via.router, ([identity, ...received]) => {
        // Note [Answer before re-arming]: zeromq.js answers more slowly while a receive is
        // pending on the same socket, so when the worker is idle a request that completes
        // within this turn is answered before the loop asks for the next one; under load
        // (or for slow requests) requests are served concurrently.
        const idle = this.limiter.idle;
        const name = Buffer.from(identity!.buffer, identity!.byteOffset, identity!.byteLength).toString();
        let served: Promise<void> | null = null;
        for (const frames of this.split(received)) {
          const serve = () => this.serve(via, identity!, name, frames);
          if (!this.isConnected)
            served = this.limiter.run(async () => {
              await this.connected;
              if (this.accept(via, identity!, name, frames)) await serve();
            });
          else if (this.accept(via, identity!, name, frames)) served = this.limiter.run(serve);
        }
        return idle && served ? Promise.race([served, endOfTurn()]) : undefined;
      });
    } catch (e) {
      if (!this.closed)
        this.opts.onProtocolError(new RpcError('PROTOCOL', `receive loop ended: ${(e as Error).message}`));
    }
  }

  /**
   * Whether to serve a received message. It must come from a member, SIGNED with that member's
   * key (Note [Authenticated membership]; a JOIN_REQ is judged in serve()); anything else gets
   * no answer at all. A heartbeat is answered here, ahead of the numWorkerThreads queue (Note
   * [Peer liveness]); an ACK only moves the caller's watermark, and a copy of a request already
   * running or stale is dropped, of an answered one answered again (Note [Exactly-once calls]).
   */
  private accept(via: Listener, identity: Uint8Array, name: string, frames: Uint8Array[]): boolean {
    const secure = this.opts.auth !== null;
    let header: Header;
    try {
      header = decodeHeader(frames[0]);
    } catch {
      if (secure) this.refuse(name, 'a malformed header');
      return !secure; // serve() answers the protocol error
    }
    const peer = this.peers.get(name);
    if (secure && !peer) {
      if (header.type === MessageType.JOIN_REQ) return true;
      const gone = this.departed.get(name);
      if (gone?.macKey && signedBy(frames[0]!, gone.macKey)) {
        // a member this worker dropped, back (paused, cut off): tell it, so it does not blame us
        const dropped = new RpcError('DROPPED', `${this.self} dropped ${name} from the group`);
        if (header.type !== MessageType.ACK)
          void this.answer(via, identity, undefined, header.id, {
            type: MessageType.EXCEPTION,
            payload: exceptionPayload(dropped, this.self),
          });
        return false;
      }
      this.refuse(name, 'a message from a worker that is not a member');
      return false;
    }
    if (peer?.macKey && !signedBy(frames[0]!, peer.macKey)) {
      this.refuse(name, `a message not signed with ${name}'s key`);
      return false;
    }
    this.liveness.heard(name);
    if (header.type === MessageType.HEARTBEAT_REQ) {
      void this.answer(via, identity, peer?.info, header.id, { type: MessageType.HEARTBEAT_RESP, payload: null });
      return false;
    }
    if (!peer) return true;
    const acked = readAcked(frames[0]!);
    if (header.type === MessageType.ACK) {
      peer.served.ack(acked);
      return false;
    }
    if (header.type === MessageType.NOTIFY) {
      this.takeNotify(via, identity, peer, frames, header, acked);
      return false;
    }
    const admission = peer.served.admit(header.id, acked);
    if (admission === 'serve') return true;
    this.stats.duplicates++;
    if (admission !== 'drop') void via.queue.send(admission, identity).catch(() => {});
    return false;
  }

  /** Runs a member's NOTIFY once, in this turn, and owes it a receipt (Note [One-way messages]). */
  private takeNotify(
    via: Listener,
    identity: Uint8Array,
    peer: Peer,
    frames: Uint8Array[],
    header: Header,
    acked: number,
  ): void {
    const admission = peer.served.admit(header.id, acked);
    if (admission !== 'serve') {
      this.stats.duplicates++;
      // a copy of one that ran: its receipt was lost (a copy of one below the watermark was received)
      if (admission !== 'drop') peer.receipts.owe(header.id, true, via, identity);
      return;
    }
    this.stats.received(frames);
    let confirm = true;
    try {
      const msg = decodeMessage(frames, { deviceMap: peer.inMap, peer: peer.info.id }, header);
      if (msg.type === MessageType.NOTIFY) {
        confirm = msg.payload.confirm;
        this.opts.onNotify(peer.info, msg.payload.fn, msg.payload.args);
      }
    } catch (e) {
      this.opts.onProtocolError(
        e instanceof RpcError
          ? e
          : new RpcError('PROTOCOL', `NOTIFY from ${peer.info} failed: ${(e as Error).message}`),
      );
    }
    peer.served.answered(header.id, RECEIVED as Uint8Array[]);
    peer.receipts.owe(header.id, confirm, via, identity);
  }

  /** Whether a JOIN_REQ shows the store's ticket and is signed with the key that ticket vouches for. */
  private joinAuthentic(frames: Uint8Array[], record: WorkerRecord): boolean {
    const auth = this.opts.auth;
    if (!auth) return true;
    if (!record.publicKey || !ticketValid(auth.secret, record, record.ticket)) return false;
    try {
      return signedBy(frames[0]!, pairKey(auth.keys.secretKey, record.publicKey, auth.secret));
    } catch {
      return false; // not a CURVE key
    }
  }

  /** Serves one request that came in on `via` from the worker whose DEALER identity is `identity` (its `name`). */
  private async serve(via: Listener, identity: Uint8Array, name: string, frames: Uint8Array[]): Promise<void> {
    this.stats.received(frames);
    if (!this.byName.has(name)) await this.connected;
    let from = this.byName.get(name);
    let id: number | undefined;
    let reply: OutgoingMessage;
    try {
      const header = decodeHeader(frames[0]);
      id = header.id;
      switch (messageKind(header.type)) {
        case 'request': {
          if (header.type === MessageType.JOIN_REQ) {
            const join = decodeMessage(frames, { deviceMap: {}, peer: -1 }, header);
            if (join.type !== MessageType.JOIN_REQ) return;
            if (!this.joinAuthentic(frames, join.payload)) {
              this.refuse(name, 'a JOIN_REQ without a valid ticket and signature');
              return;
            }
            this.opts.admit(join.payload, name);
            from = this.byName.get(name);
            reply = { type: MessageType.JOIN_RESP, payload: null };
            break;
          }
          if (!from) throw this.departure(name) ?? new RpcError('PROTOCOL', `request from an unknown worker '${name}'`);
          if (header.type === MessageType.LEAVE_REQ) {
            this.removePeer(name, 'left');
            reply = { type: MessageType.LEAVE_RESP, payload: null };
            break;
          }
          const msg = decodeMessage(frames, { deviceMap: this.peers.get(from.name)!.inMap, peer: from.id }, header);
          reply = await this.dispatch(msg, from);
          break;
        }
        case 'response':
        case 'exception':
        case 'unknown':
          throw new RpcError('PROTOCOL', `${messageTypeName(header.type)} is not a request`);
      }
    } catch (e) {
      if (e instanceof RpcError) id ??= e.messageId;
      if (e instanceof RpcError && e.code === 'PROTOCOL') this.opts.onProtocolError(e);
      if (id === undefined) return;
      reply = { type: MessageType.EXCEPTION, payload: exceptionPayload(e, this.self) };
    }
    await this.answer(via, identity, from, id, reply);
  }

  /** Sends the answer to request `id` back to the caller's identity, on the ROUTER the request came in on. */
  private async answer(
    via: Listener,
    identity: Uint8Array,
    from: WorkerInfo | undefined,
    id: number,
    reply: OutgoingMessage,
  ): Promise<void> {
    if (this.closed) return;
    const peer = from && this.peers.get(from.name);
    let out: Uint8Array[];
    try {
      out = encodeMessage(
        { type: reply.type, id, payload: reply.payload },
        { deviceMap: peer?.inMap ?? {}, peer: from?.id ?? -1 },
      );
      if (peer) checkSize(out, peer, 'response');
    } catch (e) {
      out = encodeMessage(
        { type: MessageType.EXCEPTION, id, payload: exceptionPayload(e, this.self) },
        { deviceMap: {}, peer: -1 },
      );
    }
    this.stats.sent(out);
    if (peer && reply.type !== MessageType.HEARTBEAT_RESP) peer.served.answered(id, out);
    await via.queue.send(out, identity).catch(() => {});
  }
}
