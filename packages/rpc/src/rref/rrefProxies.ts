import type { To } from '../call.js';
import { type CallOptions, remote, rpcAsync, rpcSync } from '../rpcCalls.js';
import { methodProxy } from './proxy.js';
import { type RRef, setRRefProxyFactory } from './rref.js';

/**
 * PyTorch's rref.rpc_sync()/rpc_async()/remote() proxies: call a method of the value on its owner.
 * rref.ts cannot import the call API (remote() makes RRefs), so this module fills its slot when
 * the package's entry loads it.
 */
function rrefProxies(rref: RRef) {
  const call = (kind: (to: To, fn: string, args: unknown[], opts: CallOptions) => unknown, timeout?: number) =>
    methodProxy((method, args) => kind(rref.owner(), '_wiregrad.rrefCallMethod', [rref, method, args], { timeout }));
  return {
    rpcSync: (timeout?: number) =>
      methodProxy((method, args) =>
        rpcSync(rref.owner(), '_wiregrad.rrefCallMethod', [rref, method, args], { timeout }),
      ),
    rpcAsync: (timeout?: number) => call(rpcAsync, timeout),
    remote: (timeout?: number) => call(remote, timeout),
  };
}

setRRefProxyFactory(rrefProxies);
