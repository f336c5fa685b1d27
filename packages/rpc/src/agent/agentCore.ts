import type { Context, Router, Reply } from 'zeromq';
import { zmq } from './zeromq.js';
import { LINGER_MS, dropSocket, openDealer, openRouter } from './sockets.js';
import { hostKey, reachesLocally } from './localTransport.js';
import { startZap } from './zap.js';
import { RpcError } from '../errors.js';
import { splitBatch } from '../messages/batch.js';
import { fromWire } from '../messages/textFrames.js';
import {
  decodeMessage,
  encodeMessage,
  signHead,
  writeAcked,
  type Message,
  type OutgoingMessage,
} from '../messages/message.js';
import { pairKey } from '../auth/keys.js';
import { MessageType, messageTypeName } from '../messages/messageType.js';
import { Limiter } from './limiter.js';
import { PendingCalls } from './pendingCalls.js';
import { Liveness } from './liveness.js';
import { Outstanding } from './outstanding.js';
import { ServedRequests } from './servedRequests.js';
import { type Departure, type Peer, type PeerSpec, checkSize, goneError } from './peer.js';
import type { LeaveReason } from '../membership.js';
import { receiveEach } from './receiveEach.js';
import { SendQueue } from './sendQueue.js';
import { Receipts, receiptFrames } from './receipts.js';
import type { Notify } from '../messages/payloads.js';
import type { Listener } from './sockets.js';
import { TrafficStats } from './trafficStats.js';
import type { AgentOptions, Handler, Handlers } from './options.js';
import type { WorkerInfo } from './workerInfo.js';

/** How long an answer's acknowledgement waits for a request to the same peer to carry it, in ms. */
const ACK_DELAY_MS = 20;

/**
 * An RPC agent's state and caller side (Note [ZeroMQ agent]): the peer table, requests and their
 * answers, resends and acknowledgements (Note [Exactly-once calls]), teardown. Agent serves.
 */
export abstract class AgentCore {
  readonly router: Router;
  protected readonly routerQueue: SendQueue;
  /** the ROUTER on this machine's Unix socket (Note [Same-machine peers over Unix sockets]) */
  protected local: Listener | null = null;
  /** this machine's identity (hostKey) */
  protected readonly host = hostKey();
  protected readonly peers = new Map<string, Peer>();
  protected readonly byName = new Map<string, WorkerInfo>();
  private readonly byId = new Map<number, WorkerInfo>();
  /** workers that left or died, by name and by id, for a clear error when they are called */
  protected readonly departed = new Map<
    string | number,
    { info: WorkerInfo; error: RpcError; macKey: Buffer | null }
  >();
  private readonly pending = new PendingCalls();
  private readonly handlers = new Map<number, Handler>();
  protected readonly limiter: Limiter;
  protected readonly liveness: Liveness;
  protected closed = false;
  /** sends again the requests that wait too long for their answer (Note [Exactly-once calls]) */
  private readonly resendTimer: NodeJS.Timeout;
  private ackTimer: NodeJS.Timeout | null = null;
  /** whether connect() ran: before it, requests wait for the peer table to be judged */
  protected isConnected = false;
  /** identities already named in a log line for an unauthenticated message */
  private readonly refusedNames = new Set<string>();
  /**
   * A peer can finish the rendezvous and call before this worker has read the rendezvous
   * answer; its requests wait here until connect() has filled the peer table (or close()).
   */
  private markConnected!: () => void;
  protected readonly connected = new Promise<void>((r) => (this.markConnected = r));
  /**
   * The thread's ZeroMQ context (one I/O thread for every socket of this worker); with CURVE a
   * context of its own, since the ZAP handler answers for every socket of its context.
   */
  protected readonly context: Context;
  private readonly zap: Reply | null = null;
  /** bytes and messages this agent sent and received (requests and responses) */
  readonly stats = new TrafficStats();
  /** listen addresses of the peers by id (diagnostics, tests and JOIN_REQ announcements) */
  readonly peerAddresses = new Map<number, string>();
  /** the address each peer's DEALER connected to (its ipc:// socket on this machine, else its TCP address) */
  readonly peerRoutes = new Map<number, string>();
  /** public keys allowed to connect when CURVE is on */
  readonly allowedKeys = new Set<string>();
  address = '';

  constructor(protected readonly opts: AgentOptions) {
    this.context = opts.zap ? new zmq.Context() : zmq.context;
    if (opts.zap)
      this.zap = startZap(
        this.context,
        () => this.allowedKeys,
        (address) => this.refuse(address, 'a CURVE key that is not a member'),
      );
    this.router = openRouter(this.context, opts);
    this.routerQueue = new SendQueue(this.router, opts.batchMessages);
    this.limiter = new Limiter(opts.numWorkerThreads);
    this.liveness = new Liveness(opts.heartbeatMs, opts.deadAfterHeartbeats, {
      // a ping lost with a connection is not sent again: the next interval pings anew
      ping: (name) => {
        const info = this.byName.get(name);
        return info
          ? this.send(info, { type: MessageType.HEARTBEAT_REQ, payload: null }, opts.heartbeatMs)
          : Promise.resolve();
      },
      dead: (name) => this.removePeer(name, 'dead'),
    });
    this.resendTimer = setInterval(() => this.resend(), opts.heartbeatMs).unref();
  }

  get self(): WorkerInfo {
    return this.opts.self;
  }

  /** This worker's CURVE public key (null: plain TCP). */
  get publicKey(): string | null {
    return this.opts.curve?.publicKey ?? null;
  }

  /** The id is known once the rendezvous answered (a joiner gets it from the store). */
  setSelf(info: WorkerInfo): void {
    this.opts.self = info;
  }

  /** Connects a DEALER to every peer of the rendezvous (this worker included: self-calls go over the wire too). */
  connect(peers: PeerSpec[]): void {
    for (const p of peers) this.addPeer(p);
    this.isConnected = true;
    this.markConnected();
  }

  /** Adds a member (Note [Membership]); a worker that rejoins under a departed name is a new member. */
  addPeer(p: PeerSpec): void {
    if (this.closed) return;
    if (this.peers.has(p.info.name))
      throw new RpcError('INVALID_ARGUMENT', `RPC worker name ${p.info.name} is not unique`);
    if (p.publicKey) this.allowedKeys.add(p.publicKey);
    this.peerAddresses.set(p.info.id, p.address);
    const local = this.opts.ipcDir !== null && reachesLocally(p.ipc, this.host);
    const route = local ? p.ipc!.address : p.address;
    this.peerRoutes.set(p.info.id, route);
    const dealer = openDealer(this.context, this.opts, this.self.name, p, route, local);
    const peer: Peer = {
      ...p,
      dealer,
      queue: new SendQueue(dealer, this.opts.batchMessages),
      outstanding: new Outstanding(),
      served: new ServedRequests(),
      receipts: new Receipts((ids, via, identity) => this.sendReceipts(ids, via, identity)),
      ackOwed: false,
      macKey: this.macKey(p),
    };
    this.peers.set(p.info.name, peer);
    this.byName.set(p.info.name, p.info);
    this.byId.set(p.info.id, p.info);
    this.departed.delete(p.info.name);
    if (p.info !== this.self) this.liveness.track(p.info.name);
    void this.responseLoop(peer);
  }

  /**
   * Removes a member that left or died: its pending calls fail with PEER_DISCONNECTED naming it,
   * its DEALER closes, and `onPeerGone` tells the layers above (Note [Membership]).
   */
  removePeer(name: string, reason: LeaveReason, droppedUs = false): void {
    const peer = this.peers.get(name);
    if (!peer || peer.info === this.self) return;
    this.peers.delete(name);
    this.byName.delete(name);
    this.byId.delete(peer.info.id);
    this.liveness.forget(name);
    const why: Departure = { reason, droppedUs, pausedMs: this.liveness.recentPauseMs() };
    const gone = { info: peer.info, error: goneError(peer.info, why, this.liveness.windowMs), macKey: peer.macKey };
    this.departed.set(name, gone);
    this.departed.set(peer.info.id, gone);
    this.pending.failAll(peer.info, () => new RpcError('PEER_DISCONNECTED', gone.error.message));
    peer.outstanding.clear();
    peer.receipts.stop();
    dropSocket(peer.dealer);
    this.opts.onPeerGone(peer.info, reason);
  }

  /** The error for a call to a worker that left or died, or null if `to` never was a member. */
  departure(to: string | number): RpcError | null {
    const gone = this.departed.get(to);
    return gone ? new RpcError('PEER_DISCONNECTED', gone.error.message) : null;
  }

  registerHandler<T extends MessageType>(type: T, handler: Handler<T>): void {
    this.handlers.set(type, handler as Handler); // dispatch only passes it messages of type T
  }

  registerHandlers(handlers: Handlers): void {
    for (const key of Object.keys(handlers)) {
      const type = Number(key) as MessageType;
      this.registerHandler(type, handlers[type] as Handler);
    }
  }

  workerInfo(name: string): WorkerInfo | undefined {
    return this.byName.get(name);
  }

  workerInfoById(id: number): WorkerInfo | undefined {
    return this.byId.get(id);
  }

  workerInfos(): WorkerInfo[] {
    return [...this.byName.values()].sort((a, b) => a.id - b.id);
  }

  pendingCount(): number {
    return this.pending.size;
  }

  /** Sends a request and resolves with the response (an EXCEPTION response rejects). */
  send(to: WorkerInfo, msg: OutgoingMessage, timeoutMs: number): Promise<Message> {
    if (this.closed) return Promise.reject(new RpcError('SHUTDOWN', 'RPC agent is shut down'));
    const peer = this.peers.get(to.name);
    if (!peer || peer.info !== to)
      return Promise.reject(
        this.departure(to.name) ?? new RpcError('UNKNOWN_WORKER', `Unknown destination worker ${to.name}`),
      );
    const heartbeat = msg.type === MessageType.HEARTBEAT_REQ;
    const { id, answer } = this.pending.open(to, timeoutMs, heartbeat ? undefined : peer.outstanding);
    let frames: Uint8Array[];
    try {
      frames = encodeMessage({ type: msg.type, id, payload: msg.payload }, { deviceMap: peer.outMap, peer: to.id });
      checkSize(frames, peer, 'request');
    } catch (e) {
      this.pending.fail(id, e);
      return answer;
    }
    writeAcked(frames[0]!, peer.outstanding.watermark());
    if (peer.macKey) frames[0] = signHead(frames[0]!, peer.macKey);
    peer.ackOwed = false;
    if (!heartbeat) peer.outstanding.add(id, frames, performance.now());
    this.stats.sent(frames);
    peer.queue
      .send(frames)
      .catch((e: Error) =>
        this.pending.fail(id, new RpcError('PEER_DISCONNECTED', `failed to send to ${to}: ${e.message}`)),
      );
    return answer;
  }

  /** Sends a one-way message (Note [One-way messages]); resolves once its receipt came back. */
  async notify(to: WorkerInfo, payload: Notify): Promise<void> {
    await this.send(to, { type: MessageType.NOTIFY, payload }, 0);
  }

  /** Sends the receipts owed to a caller for its NOTIFY messages (Note [One-way messages]). */
  private sendReceipts(ids: number[], via: Listener, identity: Uint8Array): void {
    if (this.closed) return;
    const frames = receiptFrames(ids);
    this.stats.sent(frames);
    void via.queue.send(frames, identity).catch(() => {});
  }

  private async responseLoop(peer: Peer): Promise<void> {
    try {
      // See Note [Receive loops hold no message]
      await receiveEach(peer.dealer, (received) => {
        this.liveness.heard(peer.info.name);
        for (const frames of this.split(received)) {
          let msg: Message;
          this.stats.received(frames);
          try {
            msg = decodeMessage(frames, { deviceMap: {}, peer: peer.info.id });
          } catch (e) {
            this.opts.onProtocolError(e instanceof RpcError ? e : new RpcError('PROTOCOL', String(e)));
            const id = e instanceof RpcError ? e.messageId : undefined;
            if (id !== undefined) this.pending.fail(id, e);
            continue;
          }
          if (msg.type === MessageType.NOTIFY_RECEIVED) {
            for (const id of msg.payload.ids) this.pending.settle({ ...msg, id }, peer.info, this.opts.onProtocolError);
            this.owesAck(peer);
            continue;
          }
          if (msg.type === MessageType.EXCEPTION && msg.payload.code === 'DROPPED') {
            this.removePeer(peer.info.name, 'dead', true);
            continue;
          }
          if (this.pending.settle(msg, peer.info, this.opts.onProtocolError)) this.owesAck(peer);
        }
      });
    } catch (e) {
      if (!this.closed && this.peers.get(peer.info.name) === peer) {
        this.opts.onProtocolError(
          new RpcError('PROTOCOL', `response loop for ${peer.info} ended: ${(e as Error).message}`),
        );
      }
    }
  }

  /** An unauthenticated message or connection: counted, named in one log line per sender, never answered. */
  protected refuse(from: string, what: string): void {
    this.stats.refused++;
    if (this.refusedNames.size >= 16 || this.refusedNames.has(from)) return;
    this.refusedNames.add(from);
    this.opts.onProtocolError(
      new RpcError('AUTH', `refused ${what} (from '${from}'): it did not prove the group secret; nothing was answered`),
    );
  }

  /** The MAC key shared with peer `p` (Note [Authenticated membership]). */
  private macKey(p: PeerSpec): Buffer | null {
    const auth = this.opts.auth;
    if (!auth) return null;
    if (!p.publicKey) throw new RpcError('AUTH', `${p.info} has no public key: it runs insecure, this worker does not`);
    return pairKey(auth.keys.secretKey, p.publicKey, auth.secret);
  }

  /** Sends every request unanswered for too long again (Note [Exactly-once calls]). */
  private resend(): void {
    const now = performance.now();
    for (const peer of this.peers.values()) {
      if (peer.outstanding.size === 0) continue;
      const cap = Math.min(this.liveness.windowMs, 4 * this.opts.heartbeatMs);
      for (const frames of peer.outstanding.due(now, this.opts.heartbeatMs, cap)) {
        this.stats.resent++;
        void peer.queue.send(frames).catch(() => {});
      }
    }
  }

  /** An answer from `peer` arrived: tell it the new watermark soon, unless a request carries it first. */
  private owesAck(peer: Peer): void {
    peer.ackOwed = true;
    this.ackTimer ??= setTimeout(() => {
      this.ackTimer = null;
      for (const p of this.peers.values()) {
        if (!p.ackOwed) continue;
        p.ackOwed = false;
        const [head] = encodeMessage({ type: MessageType.ACK, id: 0, payload: null }, { deviceMap: {}, peer: -1 });
        writeAcked(head!, p.outstanding.watermark());
        void p.queue.send([p.macKey ? signHead(head!, p.macKey) : head!]).catch(() => {});
      }
    }, ACK_DELAY_MS).unref();
  }

  /** The messages of one received ZeroMQ message (Note [Batched messages], Note [Small frames travel as text]); a bad batch is reported and dropped. */
  protected split(received: Uint8Array[]): Uint8Array[][] {
    try {
      if (received.length > 0) received[0] = fromWire(received[0]!);
      return splitBatch(received);
    } catch (e) {
      this.opts.onProtocolError(e as RpcError);
      return [];
    }
  }

  /** Runs the handler of a request's type (dist-autograd re-dispatches the messages it unwraps). */
  dispatch(msg: Message, from: WorkerInfo): Promise<OutgoingMessage> {
    const handler = this.handlers.get(msg.type);
    if (!handler)
      throw new RpcError('PROTOCOL', `no handler for message type ${messageTypeName(msg.type)} on ${this.self}`);
    return handler(msg, from);
  }

  /**
   * Closes every socket; pending calls fail with SHUTDOWN.
   * See Note [Teardown never aborts].
   */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const p of this.peers.values()) p.receipts.flush();
    // queued messages go out first, unless a peer stopped reading (then its send never ends)
    let timer: NodeJS.Timeout | undefined;
    const drained = Promise.all([
      this.routerQueue.drain(),
      this.local?.queue.drain(),
      ...[...this.peers.values()].map((p) => p.queue.drain()),
    ]);
    await Promise.race([drained, new Promise((r) => (timer = setTimeout(r, LINGER_MS)))]);
    clearTimeout(timer);
    this.closed = true;
    this.liveness.stop();
    clearInterval(this.resendTimer);
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.markConnected();
    this.pending.failAll(null, () => new RpcError('SHUTDOWN', 'RPC agent shut down while the call was pending'));
    this.router.close();
    this.local?.router.close();
    // every call failed with SHUTDOWN: what a DEALER still holds (a ping, an ACK) must not hold exit
    for (const p of this.peers.values()) {
      p.receipts.stop();
      dropSocket(p.dealer);
    }
    this.zap?.close();
  }
}
