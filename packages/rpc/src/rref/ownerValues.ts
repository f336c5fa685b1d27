import { gidKey } from './globallyUniqueId.js';
import { RRef } from './rref.js';
import { rrefContext } from './rrefContext.js';

/**
 * Note [Owner RRef arguments wait for their value]
 * `const p = remote('w1', make); await rpcSync('w1', use, [p])`: both requests can reach w1
 * in one batch, so `use` may be served while `make` still runs. PyTorch's owner blocks in
 * OwnerRRef::getValue until the value is set; here, before a user function runs, every owner
 * RRef among its arguments (nested in arrays, plain objects, Maps and Sets, or the target of
 * a proxy call) is awaited, so `localValue()` inside the function sees the value. If creating
 * the value failed, the call fails with that error. Like PyTorch's blocked thread, the wait
 * holds the request's numWorkerThreads slot.
 * Returns null when nothing is pending (the common case costs one walk and no await).
 */
export function pendingOwnerValues(args: unknown): Promise<unknown> | null {
  const waits: Promise<unknown>[] = [];
  collect(args, waits);
  if (waits.length === 0) return null;
  return Promise.all(waits);
}

function collect(v: unknown, waits: Promise<unknown>[]): void {
  if (v === null || typeof v !== 'object') return;
  if (v instanceof RRef) {
    if (!v.isOwner()) return;
    const entry = rrefContext().owners.get(gidKey(v.rrefId));
    if (entry && !entry.value.done()) waits.push(entry.value.wait());
    return;
  }
  if (Array.isArray(v)) {
    for (const x of v) collect(x, waits);
    return;
  }
  if (v instanceof Map) {
    for (const [k, x] of v) {
      collect(k, waits);
      collect(x, waits);
    }
    return;
  }
  if (v instanceof Set) {
    for (const x of v) collect(x, waits);
    return;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto === Object.prototype || proto === null) for (const x of Object.values(v)) collect(x, waits);
}
