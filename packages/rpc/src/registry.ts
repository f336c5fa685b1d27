import * as tensorOps from '@wiregrad/tensor';
import { RpcError } from './errors.js';

/**
 * Note [Registered function arguments]
 * A registered function receives whatever its callers sent (tensors, numbers, arrays, RRefs...),
 * so its parameters are `any` to the type checker, as those of `Function.prototype.apply`:
 * `register('square', (t) => t.mul(t))` type-checks, and a function may annotate what it expects
 * (`(a: Tensor, b: Tensor) => a.add(b)`). With `never[]` an unannotated parameter was `never`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RegisteredFunction = (...args: any[]) => unknown;
type Fn = RegisteredFunction;

const byName = new Map<string, Fn>();
const nameOf = new Map<Fn, string>();

/**
 * Note [Functions travel by name]
 * PyTorch pickles Python functions; wiregrad sends only a registered name, so nothing runs on
 * a worker that the worker did not register itself. Every exported @wiregrad/tensor function
 * is registered under its export name (its plumbing aside), so `rpcSync('w1', add, [a, b])`
 * works like `rpc_sync("w1", torch.add, (a, b))`.
 */
export function register(name: string, fn: Fn): void {
  if (typeof name !== 'string' || name.length === 0) throw new RpcError('INVALID_ARGUMENT', 'register(name, fn) needs a non-empty name');
  if (typeof fn !== 'function') throw new RpcError('INVALID_ARGUMENT', 'function should be callable.');
  const existing = byName.get(name);
  if (existing && existing !== fn) nameOf.delete(existing);
  byName.set(name, fn);
  nameOf.set(fn, name);
}

export function lookupFunction(name: string): Fn | undefined {
  return byName.get(name);
}

/** The wire name of `fn` (a registered function, or a name). */
export function functionName(fn: unknown): string {
  if (typeof fn === 'string') return fn;
  if (typeof fn !== 'function') throw new RpcError('INVALID_ARGUMENT', 'function should be callable.');
  const name = nameOf.get(fn as Fn);
  if (!name) {
    throw new RpcError('UNKNOWN_FUNCTION', `function ${fn.name || '<anonymous>'} is not registered: call register(name, fn) on every worker and pass it or its name`);
  }
  return name;
}

function isClass(v: unknown): boolean {
  return typeof v === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(v));
}

/**
 * The tensor package's plumbing (kernel registration and dispatch, autograd and storage hooks)
 * is exported too, but no peer may call it: a remote setAutogradHooks would rewire a worker.
 */
const INFRASTRUCTURE = /^(register|install|set|on)[A-Z]|Kernel/;

const builtins = new Set<string>();
for (const [name, value] of Object.entries(tensorOps)) {
  if (typeof value === 'function' && !isClass(value) && !INFRASTRUCTURE.test(name)) {
    register(name, value as Fn);
    builtins.add(name);
  }
}

/** Pre-registered tensor functions travel as SCRIPT_CALL, user functions as PYTHON_CALL. */
export function isBuiltin(name: string): boolean {
  return builtins.has(name) && byName.get(name) === (tensorOps as Record<string, unknown>)[name];
}
