import { RpcError } from '../errors.js';
import { register } from '../registry.js';
import type { RRef } from './rref.js';

/**
 * Runs `method` on the value an RRef points at; registered on every worker (the proxies call
 * it). It runs on the owner, where the value may still be being created by the remote() call
 * that made the RRef (both messages can arrive in one batch): like PyTorch's
 * OwnerRRef::getValue it waits for the value.
 */
register('_wiregrad.rrefCallMethod', async (rref: RRef, method: string, args: unknown[]) => {
  try {
    const value = (await rref.toHere()) as Record<string, unknown>;
    const fn = value?.[method];
    if (typeof fn !== 'function') {
      throw Object.assign(
        new RpcError(
          'INVALID_ARGUMENT',
          `'${value?.constructor?.name ?? typeof value}' object has no attribute '${method}'`,
        ),
        { name: 'AttributeError' },
      );
    }
    return await (fn as (...a: unknown[]) => unknown).apply(value, args);
  } finally {
    await rref.release();
  }
});

export type MethodProxy<R> = Record<string, (...args: unknown[]) => R>;

/** `rref.rpcSync().method(...args)` and friends: a Proxy whose every property calls through `call`. */
export function methodProxy<R>(call: (method: string, args: unknown[]) => R): MethodProxy<R> {
  return new Proxy({} as MethodProxy<R>, {
    get: (_target, prop) => {
      if (typeof prop !== 'string' || prop === 'then') return undefined;
      return (...args: unknown[]) => call(prop, args);
    },
  });
}
