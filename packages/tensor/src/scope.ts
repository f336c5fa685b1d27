import { TensorError } from './errors.js';
import { Tensor, isKept, setTensorScope } from './tensor.js';

/**
 * Note [tidy scopes]
 * tfjs's tidy: every Tensor created while `fn` runs (results, temporaries, views; by any op
 * or kernel) is disposed when it returns, except the tensors it returns (found in the
 * result itself, or in arrays, Maps and plain objects inside it), the ones passed to keep()
 * or assigned to a `.grad`, and leaves that require grad (parameters made inside the scope). The returned ones then
 * belong to the enclosing scope, if any. When `fn` throws, everything it created is
 * disposed and the error goes on. Disposing only releases holds (Note [Releasing
 * storages]): what autograd saved for backward stays alive until the graph is freed.
 */
export function tidy<T>(fn: () => T): T {
  const created: Tensor[] = [];
  const outer = setTensorScope(created);
  let result: T;
  try {
    result = fn();
  } catch (e) {
    setTensorScope(outer);
    disposeCreated(created, new Set());
    throw e;
  }
  setTensorScope(outer);
  if (result instanceof Promise) {
    disposeCreated(created, new Set());
    throw new TensorError(
      'INVALID_ARGUMENT',
      'tidy() cannot run an async function: tensors created after its first await would escape the scope',
    );
  }
  const returned = new Set<Tensor>();
  collectTensors(result, returned, new Set());
  disposeCreated(created, returned);
  if (outer !== null) for (const t of created) if (returned.has(t)) outer.push(t);
  return result;
}

function disposeCreated(created: readonly Tensor[], returned: ReadonlySet<Tensor>): void {
  for (const t of created) {
    if (returned.has(t) || isKept(t) || t.isLeafRequiringGrad) continue;
    t.dispose();
  }
}

function collectTensors(value: unknown, into: Set<Tensor>, seen: Set<object>): void {
  if (value === null || typeof value !== 'object') return;
  if (value instanceof Tensor) {
    into.add(value);
    return;
  }
  if (seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) for (const v of value) collectTensors(v, into, seen);
  else if (value instanceof Map) for (const v of value.values()) collectTensors(v, into, seen);
  else if (Object.getPrototypeOf(value) === Object.prototype)
    for (const v of Object.values(value)) collectTensors(v, into, seen);
}

/** Disposes every tensor in `value` (a tensor, or arrays, Maps and plain objects of them). */
export function dispose(value: unknown): void {
  const found = new Set<Tensor>();
  collectTensors(value, found, new Set());
  for (const t of found) t.dispose();
}
