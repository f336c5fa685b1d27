import type { Dealer } from 'zeromq';
import { RpcError } from '../errors.js';
import type { LeaveReason } from '../membership.js';
import type { Outstanding } from './outstanding.js';
import type { SendQueue } from './sendQueue.js';
import type { ServedRequests } from './servedRequests.js';
import type { LocalEndpoint } from './localTransport.js';
import type { Receipts } from './receipts.js';
import type { WorkerInfo } from './workerInfo.js';

/** What the rendezvous (or a JOIN_REQ) tells of a peer: enough to connect to it. */
export interface PeerSpec {
  info: WorkerInfo;
  address: string;
  /** its Unix socket, for workers on its machine (Note [Same-machine peers over Unix sockets]) */
  ipc?: LocalEndpoint;
  publicKey: string | null;
  /** device map from this worker to the peer, and the reverse of the peer's map to this worker */
  outMap: Record<string, string>;
  inMap: Record<string, string>;
  /** the largest frame the peer accepts */
  maxMessageBytes: number;
}

/** A connected member: its DEALER and send queue, and both sides of Note [Exactly-once calls]. */
export interface Peer extends PeerSpec {
  dealer: Dealer;
  queue: SendQueue;
  /** this worker's requests to the peer that have no answer yet */
  outstanding: Outstanding;
  /** the peer's requests to this worker: running, or answered and not yet acknowledged */
  served: ServedRequests;
  /** the receipts this worker owes the peer for its NOTIFY messages (Note [One-way messages]) */
  receipts: Receipts;
  /** answers arrived since this worker last told the peer its watermark */
  ackOwed: boolean;
  /** the key of the MACs between this worker and the peer (null: insecure; Note [Authenticated membership]) */
  macKey: Buffer | null;
}

/** Why a member was removed, as far as this worker can tell (Note [Membership], Note [Peer liveness]). */
export interface Departure {
  reason: LeaveReason;
  /** the peer told this worker it had dropped it (its messages reached a group that no longer had it) */
  droppedUs: boolean;
  /** how long this worker itself was paused just before (0: it was not) */
  pausedMs: number;
}

/** The error for a call to a worker that left or died, telling whose silence it was (Note [Membership]). */
export function goneError(info: WorkerInfo, d: Departure, windowMs: number): RpcError {
  const paused =
    d.pausedMs > 0
      ? `this worker was paused for ${(d.pausedMs / 1000).toFixed(1)} s (more than the ${windowMs} ms dead-peer window), so the group dropped it`
      : '';
  if (d.droppedUs)
    return new RpcError(
      'PEER_DISCONNECTED',
      `${info} dropped this worker from the group (it heard nothing from it for more than ${windowMs} ms)${paused ? `: ${paused}` : ''}`,
    );
  if (d.reason === 'left') return new RpcError('PEER_DISCONNECTED', `${info} left the group (shutdown)`);
  return new RpcError(
    'PEER_DISCONNECTED',
    paused
      ? `lost the connection to ${info}: ${paused}`
      : `lost the connection to ${info} (it stopped answering heartbeats for ${windowMs} ms)`,
  );
}

/** A frame above the peer's ZMQ_MAXMSGSIZE would only make ZeroMQ drop the connection: refuse it here. */
export function checkSize(frames: readonly Uint8Array[], peer: Peer, what: string): void {
  let largest = 0;
  for (const f of frames) largest = Math.max(largest, f.byteLength);
  if (largest > peer.maxMessageBytes) {
    throw new RpcError(
      'MESSAGE_TOO_LARGE',
      `${what} frame of ${largest} bytes exceeds the limit of ${peer.info} (maxMessageBytes ${peer.maxMessageBytes})`,
    );
  }
}
