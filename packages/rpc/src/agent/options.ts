import type { RpcError } from '../errors.js';
import type { Message } from '../messages/message.js';
import type { WorkerInfo } from './workerInfo.js';

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
  curve: CurveKeys | null;
  onProtocolError: (e: RpcError) => void;
}
