import { RpcError } from '../errors.js';
import type { ExceptionPayload } from '../messages/payloads.js';
import type { WorkerInfo } from './workerInfo.js';

/**
 * Note [Remote errors]
 * A request that throws is answered with EXCEPTION (same id) carrying the error's name, its
 * message prefixed `On WorkerInfo(id=.., name=..):` (PyTorch's RemoteException text), its stack
 * and its `code`. The caller rejects with an RpcError of code REMOTE that takes the remote
 * name (a ValueError stays a ValueError), keeps the remote stack in `remoteStack` and appends
 * it to its own stack.
 */
/** The EXCEPTION payload: the error's name, message (prefixed with the worker) and stack. */
export function exceptionPayload(e: unknown, self: WorkerInfo): ExceptionPayload {
  const err = e instanceof Error ? e : new Error(String(e));
  return {
    name: err.name,
    message: `On ${self}:\n${err.message}`,
    stack: err.stack ?? '',
    code: (err as { code?: unknown }).code ?? null,
  };
}

export function remoteError(p: ExceptionPayload, from: WorkerInfo): RpcError {
  const err = new RpcError('REMOTE', p.message || `remote error on ${from}`);
  err.name = p.name || 'Error';
  err.remoteStack = p.stack;
  if (p.stack) err.stack = `${err.name}: ${err.message}\n    --- remote stack on ${from} ---\n${p.stack}`;
  if (p.code !== null && p.code !== undefined) (err as RpcError & { remoteCode: unknown }).remoteCode = p.code;
  return err;
}
