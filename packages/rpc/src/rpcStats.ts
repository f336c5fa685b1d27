import { rrefContext } from './rref/rrefContext.js';
import { rpcState } from './state.js';

/** Bytes and messages this worker's agent has sent and received since initRpc. */
export function getRpcStats(): {
  bytesSent: number;
  bytesReceived: number;
  messagesSent: number;
  messagesReceived: number;
  resent: number;
  duplicates: number;
  refused: number;
} {
  const { bytesSent, bytesReceived, messagesSent, messagesReceived, resent, duplicates, refused } =
    rpcState().agent.stats;
  return { bytesSent, bytesReceived, messagesSent, messagesReceived, resent, duplicates, refused };
}

/** Debug counters of the RRef protocol on this worker. */
export function getRRefDebugInfo(): ReturnType<ReturnType<typeof rrefContext>['debugInfo']> {
  return rrefContext().debugInfo();
}
