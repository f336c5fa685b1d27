import { returnedValue } from '../messages/message.js';
import type { WorkerInfo } from '../agent/workerInfo.js';
import { request } from '../call.js';
import { RpcError } from '../errors.js';
import { installOnce } from '../hooks.js';
import { Future } from '../future.js';
import { MessageType } from '../messages/messageType.js';
import { rpcState, timeoutMs } from '../state.js';
import { type GloballyUniqueId, gidKey, gidString, newGid } from './globallyUniqueId.js';
import { type RRefContext, rrefContext, sendControl } from './rrefContext.js';

type Proxy = Record<string, (...args: unknown[]) => unknown>;
interface Proxies {
  rpcSync(timeout?: number): Proxy;
  rpcAsync(timeout?: number): Proxy;
  remote(timeout?: number): Proxy;
}
let proxyFactory: ((r: RRef) => Proxies) | null = null;

type RRefBackward = (rref: RRef, contextId: bigint | -1, retainGraph: boolean) => Promise<void>;
let backwardImpl: RRefBackward | null = null;

/** @wiregrad/dist-autograd installs RRef.backward (rpc knows nothing of autograd), once (Note [Hook slots install once] in @wiregrad/tensor). */
export function setRRefBackward(impl: RRefBackward): void {
  backwardImpl = installOnce('setRRefBackward', 'RRef.backward', backwardImpl, impl);
}

/** @internal api.ts provides the proxies (it owns rpcSync/rpcAsync/remote). */
export function setRRefProxyFactory(f: (r: RRef) => Proxies): void {
  proxyFactory = f;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  if (ms <= 0) return p;
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<never>((_, rej) => {
      timer = setTimeout(
        () =>
          rej(
            new RpcError(
              'TIMEOUT',
              `RPC ran for more than set timeout (${ms} ms) and will now be marked with an error`,
            ),
          ),
        ms,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

interface UserState {
  forkId: GloballyUniqueId;
  confirmed: boolean;
  confirmedFuture: Future<void>;
  released: boolean;
}

/** How long release() waits for a child that never sends RREF_CHILD_ACCEPT (its worker died). */
const CHILD_ACCEPT_WAIT_MS = 30_000;

/** GC fallback for user RRefs that were never released (G1 still holds), within their RPC session. */
const finalizer = new FinalizationRegistry<{
  home: RRefContext;
  owner: number;
  rrefId: GloballyUniqueId;
  forkId: GloballyUniqueId;
}>(({ home, owner, rrefId, forkId }) => {
  if (home === rrefContext()) void sendControl(owner, MessageType.RREF_USER_DELETE, { rrefId, forkId }).catch(() => {});
});

/** GC fallback for owner views that were never released: the local reference goes. */
const ownerFinalizer = new FinalizationRegistry<{ home: RRefContext; rrefId: GloballyUniqueId }>(({ home, rrefId }) =>
  home.dropLocalRef(rrefId),
);

/**
 * A remote reference (PyTorch's RRef): `new RRef(value)` makes a local owner RRef;
 * `remote()` and received RRef arguments make user RRefs. See Note [RRef protocol].
 */
export class RRef<T = unknown> {
  readonly ownerId: number;
  readonly rrefId: GloballyUniqueId;
  private user: UserState | null = null;
  /** creation of a user RRef by remote(): rejects if the remote call failed */
  private creation: Future<void> = Future.resolved<void>(undefined);
  private ownerReleased = false;
  /** the RPC session this RRef belongs to: shutdown() deletes every RRef of its session */
  private readonly home: RRefContext;

  constructor(value: T) {
    const { self } = rpcState();
    this.ownerId = self.id;
    this.rrefId = newGid(self.id);
    this.home = rrefContext();
    const entry = this.home.ownerEntry(this.rrefId);
    entry.value.setResult(value);
    entry.localRefs++;
  }

  /** @internal a view of an existing owner entry on this worker */
  static ownerView<T>(rrefId: GloballyUniqueId): RRef<T> {
    const r = Object.create(RRef.prototype) as RRef<T>;
    const home = rrefContext();
    Object.assign(r, {
      ownerId: rpcState().self.id,
      rrefId,
      user: null,
      creation: Future.resolved<void>(undefined),
      ownerReleased: false,
      home,
    });
    home.ownerEntry(rrefId).localRefs++;
    ownerFinalizer.register(r, { home, rrefId }, r);
    return r;
  }

  /** @internal a user RRef for the fork `forkId` */
  static userRef<T>(ownerId: number, rrefId: GloballyUniqueId, forkId: GloballyUniqueId, confirmed: boolean): RRef<T> {
    const r = Object.create(RRef.prototype) as RRef<T>;
    const user: UserState = { forkId, confirmed, confirmedFuture: new Future(), released: false };
    if (confirmed) user.confirmedFuture.setResult();
    else rrefContext().pendingUsers.add(gidKey(forkId));
    const home = rrefContext();
    Object.assign(r, { ownerId, rrefId, user, creation: Future.resolved<void>(undefined), ownerReleased: false, home });
    finalizer.register(r, { home, owner: ownerId, rrefId, forkId }, r);
    return r;
  }

  /** @internal */
  confirm(): void {
    if (!this.user || this.user.confirmed) return;
    this.user.confirmed = true;
    rrefContext().pendingUsers.delete(gidKey(this.user.forkId));
    this.user.confirmedFuture.setResult();
  }

  /** @internal ties a user RRef to the remote() call that creates its value */
  setCreation(p: Promise<unknown>): void {
    // the owner registered this fork before running the function, so a failed call confirms it too
    this.creation = Future.from(
      p.then(
        () => this.confirm(),
        (e) => {
          this.confirm();
          throw e;
        },
      ),
    );
  }

  /** Settles when the owner has created the value (PyTorch's rref._get_future()); rejects with the creation error. */
  getFuture(): Future<void> {
    return this.creation;
  }

  get forkId(): GloballyUniqueId | null {
    return this.user?.forkId ?? null;
  }

  isOwner(): boolean {
    return this.user === null;
  }

  owner(): WorkerInfo {
    const { agent } = rpcState();
    const info = agent.workerInfoById(this.ownerId);
    if (!info)
      throw (
        agent.departure(this.ownerId) ??
        new RpcError('UNKNOWN_WORKER', `owner ${this.ownerId} of ${this} is not a known worker`)
      );
    return info;
  }

  ownerName(): string {
    return this.owner().name;
  }

  confirmedByOwner(): boolean {
    return this.user === null || this.user.confirmed;
  }

  /** The value, only on the owner (PyTorch's message otherwise). */
  localValue(): T {
    if (this.user) {
      throw new RpcError(
        'RREF',
        `RRef.localValue() can't be called on a user: can't call localValue() on user ${rpcState().self}. Call it on owner ${this.owner()}`,
      );
    }
    const entry = rrefContext().owners.get(gidKey(this.rrefId));
    if (!entry) throw new RpcError('RREF', `${this} was deleted on its owner`);
    if (!entry.value.done()) {
      throw new RpcError(
        'RREF',
        `the value of ${this} is still being created: await rref.getFuture() or rref.toHere() first (a function that receives the RRef as an argument waits for it)`,
      );
    }
    return entry.value.value() as T;
  }

  /** Copies the value here (the owner returns its own value). */
  async toHere(timeout?: number): Promise<T> {
    if (this.user?.released)
      throw new RpcError('RREF', `${this} was released. Cannot call to_here() on it after deletion.`);
    if (this.home !== rrefContext())
      throw new RpcError('RREF', `${this} was deleted by shutdown(). Cannot call to_here() on it after deletion.`);
    const ms = timeoutMs(timeout);
    if (!this.user) {
      const entry = rrefContext().owners.get(gidKey(this.rrefId));
      if (!entry) throw new RpcError('RREF', `${this} was deleted on its owner`);
      return withTimeout(entry.value.wait() as Promise<T>, ms);
    }
    await withTimeout(this.creation.wait(), ms);
    const owner = this.owner();
    const res = await request(
      owner,
      { type: MessageType.PYTHON_RREF_FETCH_CALL, payload: { rrefId: this.rrefId } },
      ms,
    );
    return returnedValue(res) as T; // the RRef's stated type
  }

  /**
   * Tells the owner this user is gone (G1), once the owner confirmed it and every child forked
   * from it was accepted (G2), so the owner never sees a delete before a fork. Idempotent.
   */
  async release(): Promise<void> {
    if (this.home !== rrefContext()) return; // shutdown() already deleted it
    if (!this.user) {
      if (this.ownerReleased) return;
      this.ownerReleased = true;
      ownerFinalizer.unregister(this);
      rrefContext().dropLocalRef(this.rrefId);
      return;
    }
    if (this.user.released) return;
    this.user.released = true;
    finalizer.unregister(this);
    await this.creation.wait().catch(() => {});
    if (!this.user.confirmed) await this.user.confirmedFuture.wait();
    await rrefContext().childrenAccepted(this, CHILD_ACCEPT_WAIT_MS);
    if (this.home !== rrefContext()) return; // shutdown() came meanwhile and deleted every RRef of its session
    await sendControl(this.ownerId, MessageType.RREF_USER_DELETE, { rrefId: this.rrefId, forkId: this.user.forkId });
  }

  /** `rref.rpcSync().method(...args)`: runs the method on the owner's value and resolves with its result. */
  rpcSync(timeout?: number): Record<string, (...args: unknown[]) => Promise<unknown>> {
    return proxyFactory!(this as RRef).rpcSync(timeout) as Record<string, (...args: unknown[]) => Promise<unknown>>;
  }

  /** `rref.rpcAsync().method(...args)`: the same, returning a Future. */
  rpcAsync(timeout?: number): Record<string, (...args: unknown[]) => Future<unknown>> {
    return proxyFactory!(this as RRef).rpcAsync(timeout) as Record<string, (...args: unknown[]) => Future<unknown>>;
  }

  /** `rref.remote().method(...args)`: the result stays on the owner; returns an RRef to it. */
  remote(timeout?: number): Record<string, (...args: unknown[]) => RRef> {
    return proxyFactory!(this as RRef).remote(timeout) as Record<string, (...args: unknown[]) => RRef>;
  }

  /**
   * Runs backward from the tensor this RRef holds (PyTorch's RRef.backward): on the owner,
   * contextId -1 means a local backward; otherwise a distributed one in that context.
   */
  backward(contextId: bigint | -1 = -1, retainGraph = false): Promise<void> {
    if (!backwardImpl)
      return Promise.reject(new RpcError('RREF', 'RRef.backward() needs @wiregrad/dist-autograd; import it once'));
    return backwardImpl(this as RRef, contextId, retainGraph);
  }

  /** `using r = remote(...)`: released when the block ends (the owner hears of it shortly after). */
  [Symbol.dispose](): void {
    void this.release().catch(() => {});
  }

  /** `await using r = remote(...)`: released, and the owner told, before the block is left. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }

  toString(): string {
    return this.user
      ? `UserRRef(RRefId = ${gidString(this.rrefId)}, ForkId = ${gidString(this.user.forkId)})`
      : `OwnerRRef(${gidString(this.rrefId)})`;
  }
}
