import { RpcError } from '../errors.js';
import { EXT_USER_BASE, registerExtension } from '../messages/serialize.js';
import { MessageType } from '../messages/messageType.js';
import { rpcState } from '../state.js';
import { type GloballyUniqueId, newGid } from './globallyUniqueId.js';
import { RRef } from './rref.js';
import { rrefContext, sendControl } from './rrefContext.js';

const EXT_RREF = EXT_USER_BASE;

/**
 * An RRef inside a payload: who owns it, its ids, and the worker that forks it (the parent).
 * Encoding forks: an owner records the new fork at once (owner -> user needs no control
 * message); a user parent keeps the child in pendingChildren until RREF_CHILD_ACCEPT (G2).
 * Decoding on the owner gives back the owner's own RRef; on a user, a UserRRef that asks
 * the owner to confirm it (RREF_FORK_REQUEST) and then releases its parent (Note [RRef protocol]).
 */
interface WireRRef {
  owner: number;
  rrefId: GloballyUniqueId;
  forkId: GloballyUniqueId;
  parent: number;
}

const isGid = (g: unknown): g is GloballyUniqueId =>
  typeof g === 'object' &&
  g !== null &&
  Number.isSafeInteger((g as GloballyUniqueId).createdOn) &&
  Number.isSafeInteger((g as GloballyUniqueId).localId);

function checkWireRRef(data: unknown): WireRRef {
  const w = (data ?? {}) as Partial<WireRRef>;
  if (!Number.isSafeInteger(w.owner) || !Number.isSafeInteger(w.parent) || !isGid(w.rrefId) || !isGid(w.forkId)) {
    throw new RpcError('PROTOCOL', 'bad RRef record in message');
  }
  return w as WireRRef;
}

registerExtension<RRef>(EXT_RREF, {
  test: (v): v is RRef => v instanceof RRef,
  encode: (r, ctx): WireRRef => {
    const self = rpcState().self.id;
    const forkId = newGid(self);
    if (r.isOwner()) {
      if (ctx.peer !== self) rrefContext().addFork(r.rrefId, forkId);
    } else {
      rrefContext().addPendingChild(forkId, r); // G2: the parent stays until the child is accepted
    }
    return { owner: r.ownerId, rrefId: r.rrefId, forkId, parent: self };
  },
  decode: (data) => {
    const { owner, rrefId, forkId, parent } = checkWireRRef(data);
    const self = rpcState().self.id;
    if (owner === self) {
      if (parent !== self) void sendControl(parent, MessageType.RREF_CHILD_ACCEPT, { forkId }).catch(() => {});
      return RRef.ownerView(rrefId);
    }
    const user = RRef.userRef(owner, rrefId, forkId, parent === owner);
    if (parent !== owner) {
      void sendControl(owner, MessageType.RREF_FORK_REQUEST, { rrefId, forkId })
        .then(() => {
          user.confirm();
          return sendControl(parent, MessageType.RREF_CHILD_ACCEPT, { forkId });
        })
        .catch(() => {});
    }
    return user;
  },
});
