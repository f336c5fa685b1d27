import { outgoing } from '../messages/message.js';
import type { PayloadOf } from '../messages/payloads.js';
import { RpcError } from '../errors.js';
import { Future } from '../future.js';
import { MessageType } from '../messages/messageType.js';
import { rpcState } from '../state.js';
import { type GloballyUniqueId, gidKey } from './globallyUniqueId.js';

/** What the owner keeps per RRef: the value and the forks (user RRefs) it knows of. */
export interface OwnerEntry {
  rrefId: GloballyUniqueId;
  value: Future<unknown>;
  forks: Set<string>;
  /** a local `new RRef(v)` or a fetched owner object keeps the value alive */
  localRefs: number;
}

/**
 * Note [RRef protocol]
 * PyTorch's RRef design (rref.rst): one OwnerRRef per RRefId on its owner; any number of
 * UserRRefs, each a fork with its own ForkId. G1: the owner hears of every user's deletion
 * (RREF_USER_DELETE). G2: a parent keeps a child fork alive (pendingChildren) until the
 * child is confirmed by the owner (RREF_CHILD_ACCEPT), so the owner never sees a delete
 * before the fork. User-to-user sharing: the child sends RREF_FORK_REQUEST to the owner,
 * and after its ACK, RREF_CHILD_ACCEPT to the parent. Control messages are idempotent
 * (sets keyed by id) and, like every call, delivered exactly once by the transport (Note
 * [Exactly-once calls]). The owner drops the value when no fork and no local reference remains.
 */
export class RRefContext {
  readonly owners = new Map<string, OwnerEntry>();
  /** G2: forks a user RRef made of itself, by child ForkId, until the child is accepted */
  readonly pendingChildren = new Map<string, { parent: object; accepted: Future<void> }>();
  readonly pendingUsers = new Set<string>();

  ownerEntry(rrefId: GloballyUniqueId): OwnerEntry {
    const key = gidKey(rrefId);
    let e = this.owners.get(key);
    if (!e) this.owners.set(key, (e = { rrefId, value: new Future(), forks: new Set(), localRefs: 0 }));
    return e;
  }

  addFork(rrefId: GloballyUniqueId, forkId: GloballyUniqueId): void {
    this.ownerEntry(rrefId).forks.add(gidKey(forkId));
  }

  /** G1: a user is gone; the value goes when nothing references it any more. */
  delFork(rrefId: GloballyUniqueId, forkId: GloballyUniqueId): void {
    const key = gidKey(rrefId);
    const e = this.owners.get(key);
    if (!e) return;
    e.forks.delete(gidKey(forkId));
    this.collect(key, e);
  }

  dropLocalRef(rrefId: GloballyUniqueId): void {
    const key = gidKey(rrefId);
    const e = this.owners.get(key);
    if (!e) return;
    e.localRefs = Math.max(0, e.localRefs - 1);
    this.collect(key, e);
  }

  private collect(key: string, e: OwnerEntry): void {
    if (e.forks.size === 0 && e.localRefs === 0) this.owners.delete(key);
  }

  addPendingChild(forkId: GloballyUniqueId, parent: object): void {
    this.pendingChildren.set(gidKey(forkId), { parent, accepted: new Future() });
  }

  /** RREF_CHILD_ACCEPT (idempotent): the owner knows the child now, so its parent may go. */
  acceptChild(forkId: GloballyUniqueId): void {
    const key = gidKey(forkId);
    const child = this.pendingChildren.get(key);
    if (!child) return;
    this.pendingChildren.delete(key);
    child.accepted.setResult();
  }

  /** Settles when every child of `parent` is accepted (G2), or after `timeoutMs` if a child never answers. */
  async childrenAccepted(parent: object, timeoutMs: number): Promise<void> {
    const waits = [...this.pendingChildren.values()].filter((c) => c.parent === parent).map((c) => c.accepted.wait());
    if (waits.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(waits), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
  }

  debugInfo(): { numOwnerRRefs: number; numPendingUsers: number; numPendingChildren: number; numForks: number } {
    let forks = 0;
    for (const e of this.owners.values()) forks += e.forks.size;
    return {
      numOwnerRRefs: this.owners.size,
      numPendingUsers: this.pendingUsers.size,
      numPendingChildren: this.pendingChildren.size,
      numForks: forks,
    };
  }
}

let context = new RRefContext();

export function rrefContext(): RRefContext {
  return context;
}

export function resetRRefContext(): void {
  context = new RRefContext();
}

/** how long a control message waits for its ACK: the transport resends it meanwhile (Note [Exactly-once calls]) */
const CONTROL_TIMEOUT_MS = 25_000;

/**
 * Sends an RRef control message once. The transport delivers it exactly once (Note [Exactly-once
 * calls]), so it is never sent again here: a copy under a fresh id would be a second message.
 */
export async function sendControl<T extends MessageType>(to: number, type: T, payload: PayloadOf<T>): Promise<void> {
  const { agent } = rpcState();
  const info = agent.workerInfoById(to);
  if (!info) throw agent.departure(to) ?? new RpcError('UNKNOWN_WORKER', `Unknown destination worker rank ${to}`);
  await agent.send(info, outgoing(type, payload), CONTROL_TIMEOUT_MS);
}

export { MessageType };
