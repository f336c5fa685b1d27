import type { WorkerInfo } from './agent/workerInfo.js';

/** Why a worker left the group: it said so (shutdown), or it stopped answering heartbeats. */
export type LeaveReason = 'left' | 'dead';

type JoinListener = (info: WorkerInfo) => void;
type LeaveListener = (info: WorkerInfo, reason: LeaveReason) => void;

const joinListeners = new Set<JoinListener>();
const leaveListeners = new Set<LeaveListener>();

/**
 * Note [Membership]
 * PyTorch's RPC world is fixed at init_rpc; here it may change while it runs. A worker joins
 * a running group through the rendezvous store (initRpc without worldSize), which gives it a
 * fresh id; it then announces itself to every member (JOIN_REQ) before initRpc resolves, so
 * whoever it calls already knows it. A worker leaves with shutdown() (LEAVE_REQ to every
 * member) or by dying (Note [Peer liveness]). Names stay unique among live workers; ids are
 * never reused, so a worker that rejoins under a dead worker's name gets a new id and old
 * RRefs or contexts of the dead one can never reach it. Listeners hear of every change on this
 * worker; calls to a departed worker fail with PEER_DISCONNECTED naming it.
 */
export function onWorkerJoin(listener: JoinListener): () => void {
  joinListeners.add(listener);
  return () => joinListeners.delete(listener);
}

/** Calls `listener(info, reason)` when a worker leaves the group (see Note [Membership]); returns an unsubscribe function. */
export function onWorkerLeave(listener: LeaveListener): () => void {
  leaveListeners.add(listener);
  return () => leaveListeners.delete(listener);
}

export function emitJoin(info: WorkerInfo): void {
  for (const l of [...joinListeners]) call(() => l(info));
}

export function emitLeave(info: WorkerInfo, reason: LeaveReason): void {
  for (const l of [...leaveListeners]) call(() => l(info, reason));
}

/** A listener's error must not break the agent (nor crash the process): it is reported. */
function call(fn: () => void): void {
  try {
    fn();
  } catch (e) {
    console.error('[wiregrad rpc] a membership listener threw:', e);
  }
}
