import type { RpcError } from '../errors.js';
import type { Message } from '../messages/message.js';
import type { WorkerInfo } from './workerInfo.js';
import type { LeaveReason } from '../membership.js';

/** Serves one request type: the decoded message and its sender in, the response out (a throw answers EXCEPTION). */
export type Handler = (msg: Message, from: WorkerInfo) => Promise<Omit<Message, 'id'>>;

export interface CurveKeys {
  publicKey: string;
  secretKey: string;
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
  admit: (payload: unknown, name: string) => void;
  curve: CurveKeys | null;
  onProtocolError: (e: RpcError) => void;
}
