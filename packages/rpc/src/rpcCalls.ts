import { request, resolveWorker, type To } from './call.js';
import { RpcError } from './errors.js';
import { Future } from './future.js';
import { returnedValue, type OutgoingMessage } from './messages/message.js';
import { MessageType } from './messages/messageType.js';
import { functionName, isBuiltin, type RegisteredFunction } from './registry.js';
import { newGid } from './rref/globallyUniqueId.js';
import { RRef } from './rref/rref.js';
import { rrefContext } from './rref/rrefContext.js';
import { rpcState, timeoutMs } from './state.js';

function callMessage(
  fn: unknown,
  args: unknown[],
): OutgoingMessage<typeof MessageType.SCRIPT_CALL | typeof MessageType.PYTHON_CALL> {
  const name = functionName(fn);
  if (!Array.isArray(args)) throw new RpcError('INVALID_ARGUMENT', `args must be an array, got ${typeof args}`);
  return { type: isBuiltin(name) ? MessageType.SCRIPT_CALL : MessageType.PYTHON_CALL, payload: { fn: name, args } };
}

export interface CallOptions {
  /** seconds; 0 = no timeout; default: the RPC default (getRpcTimeout()) */
  timeout?: number;
}

/**
 * Note [Typed calls]
 * Passed by value, a registered function types the call: its parameters check `args` and its
 * (awaited) return type is the result, `rpcSync('w1', add, [a, b])` is a Promise<Tensor>.
 * Passed by its registered name, the caller states the result type: `rpcSync<Tensor>('w1', 'square', [x])`.
 */
/** Runs `fn(...args)` on `to` and returns a Future of its result (torch.distributed.rpc.rpc_async). */
export function rpcAsync<F extends RegisteredFunction>(
  to: To,
  fn: F,
  args?: Parameters<F>,
  opts?: CallOptions,
): Future<Awaited<ReturnType<F>>>;
export function rpcAsync<T = unknown>(to: To, fn: string, args?: unknown[], opts?: CallOptions): Future<T>;
export function rpcAsync<T = unknown>(to: To, fn: unknown, args: unknown[] = [], opts: CallOptions = {}): Future<T> {
  return Future.from(call<T>(to, fn, args, opts));
}

/** A call's value; argument errors reject rather than throw (PyTorch raises them from the future). */
function call<T>(to: To, fn: unknown, args: unknown[], opts: CallOptions): Promise<T> {
  try {
    const info = resolveWorker(to);
    const msg = callMessage(fn, args);
    return request(info, msg, timeoutMs(opts.timeout)).then((r) => returnedValue(r) as T); // T: Note [Typed calls]
  } catch (e) {
    return Promise.reject(e);
  }
}

/** Runs `fn(...args)` on `to` and resolves with its result (torch.distributed.rpc.rpc_sync; Note [Typed calls]). */
export function rpcSync<F extends RegisteredFunction>(
  to: To,
  fn: F,
  args?: Parameters<F>,
  opts?: CallOptions,
): Promise<Awaited<ReturnType<F>>>;
export function rpcSync<T = unknown>(to: To, fn: string, args?: unknown[], opts?: CallOptions): Promise<T>;
export function rpcSync<T = unknown>(to: To, fn: unknown, args: unknown[] = [], opts: CallOptions = {}): Promise<T> {
  return call<T>(to, fn, args, opts); // no Future in between: fewer promise hops on the hot path
}

/** Runs `fn(...args)` on `to`, keeping the result there; returns an RRef to it (torch.distributed.rpc.remote). */
export function remote<F extends RegisteredFunction>(
  to: To,
  fn: F,
  args?: Parameters<F>,
  opts?: CallOptions,
): RRef<Awaited<ReturnType<F>>>;
export function remote<T = unknown>(to: To, fn: string, args?: unknown[], opts?: CallOptions): RRef<T>;
export function remote<T = unknown>(to: To, fn: unknown, args: unknown[] = [], opts: CallOptions = {}): RRef<T> {
  const { self } = rpcState();
  const info = resolveWorker(to);
  const msg = callMessage(fn, args);
  const ms = timeoutMs(opts.timeout);
  const type = msg.type === MessageType.SCRIPT_CALL ? MessageType.SCRIPT_REMOTE_CALL : MessageType.PYTHON_REMOTE_CALL;
  if (info === self) {
    const rrefId = newGid(self.id);
    const rref = RRef.ownerView<T>(rrefId);
    const done = request(info, { type, payload: { ...msg.payload, rrefId, forkId: null } }, ms);
    done.catch((e) => {
      const entry = rrefContext().ownerEntry(rrefId);
      if (!entry.value.done()) entry.value.setError(e);
    });
    rref.setCreation(done);
    return rref;
  }
  const rrefId = newGid(self.id);
  const forkId = newGid(self.id);
  const rref = RRef.userRef<T>(info.id, rrefId, forkId, false);
  rref.setCreation(request(info, { type, payload: { ...msg.payload, rrefId, forkId } }, ms));
  return rref;
}
