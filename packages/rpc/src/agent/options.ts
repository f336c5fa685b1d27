import type { RpcError } from '../errors.js';
import type { Message, OutgoingMessage } from '../messages/message.js';
import type { MessageType } from '../messages/messageType.js';
import type { WorkerInfo } from './workerInfo.js';
import type { WorkerRecord } from '../rendezvous/store.js';
import type { LeaveReason } from '../membership.js';

/**
 * Serves one request type T: the decoded message (its payload checked, Note [One payload type
 * per message type]) and its sender in, the response out (a throw answers EXCEPTION).
 */
export type Handler<T extends MessageType = MessageType> = (
  msg: Message<T>,
  from: WorkerInfo,
) => Promise<OutgoingMessage>;

/** A handler for each request type that has one. */
export type Handlers = { [T in MessageType]?: Handler<T> };

export interface CurveKeys {
  publicKey: string;
  secretKey: string;
}

/** What authenticates this worker and its peers (Note [Authenticated membership]); null runs insecure. */
export interface AgentAuth {
  secret: Buffer;
  keys: CurveKeys;
}

export interface AgentOptions {
  self: WorkerInfo;
  numWorkerThreads: number;
  /** single-frame messages to one destination queued in the same turn share a ZeroMQ message (Note [Batched messages]) */
  batchMessages: boolean;
  maxMessageBytes: number;
  heartbeatMs: number;
  /** heartbeat intervals of silence after which a peer is dead (Note [Peer liveness]) */
  deadAfterHeartbeats: number;
  /** a member left or died (Note [Membership]) */
  onPeerGone: (info: WorkerInfo, reason: LeaveReason) => void;
  /** JOIN_REQ from the DEALER identity `name`: add it as a member, or throw to refuse it */
  admit: (record: WorkerRecord, name: string) => void;
  /** the CURVE keys of every socket (null: plain TCP) */
  curve: CurveKeys | null;
  /** admit only the group's client keys at the ZeroMQ handshake (Note [CURVE authentication]) */
  zap: boolean;
  auth: AgentAuth | null;
  /** the directory of this worker's Unix socket for peers on its machine (null: TCP only, both ways; Note [Same-machine peers over Unix sockets]) */
  ipcDir: string | null;
  onProtocolError: (e: RpcError) => void;
  /** runs a NOTIFY's registered function `fn` (Note [One-way messages]); a throw is logged */
  onNotify: (from: WorkerInfo, fn: string, args: unknown[]) => void;
}
