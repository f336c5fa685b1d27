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
 * a worker that the worker did not register itself. The tensor ops of Note [Builtin operators]
 * are registered under their export names, so `rpcSync('w1', add, [a, b])` works like
 * `rpc_sync("w1", torch.add, (a, b))`.
 */
export function register(name: string, fn: Fn): void {
  // fn's parameters are `any`: Note [Registered function arguments]
  if (typeof name !== 'string' || name.length === 0)
    throw new RpcError('INVALID_ARGUMENT', 'register(name, fn) needs a non-empty name');
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
    throw new RpcError(
      'UNKNOWN_FUNCTION',
      `function ${fn.name || '<anonymous>'} is not registered: call register(name, fn) on every worker and pass it or its name`,
    );
  }
  return name;
}

/**
 * Note [Builtin operators]
 * PyTorch's builtin operators (what rpc_sync sends as a SCRIPT_CALL: torch.add, torch.ones...)
 * are tensor ops. The tensor package exports more than ops (kernel registration, storage and
 * cache control, thread pool and device plumbing), and no peer may call those: so builtins
 * are this explicit allow-list of @wiregrad/tensor ops, not "every export but a deny-pattern".
 * In-place ops are left out (they would mutate the callee's copy of an argument, which PyTorch's
 * builtins never do to a caller's tensor), as is anything that is not a pure function of its
 * arguments. A new op becomes callable by name when it is added here.
 */
export const BUILTIN_OPS = [
  // creation
  'tensor',
  'scalarTensor',
  'zeros',
  'ones',
  'full',
  'empty',
  'eye',
  'arange',
  'linspace',
  'rand',
  'randn',
  'randint',
  'zerosLike',
  'onesLike',
  'fullLike',
  'randLike',
  'randnLike',
  'oneHot',
  // elementwise
  'abs',
  'neg',
  'sign',
  'exp',
  'log',
  'log1p',
  'sqrt',
  'rsqrt',
  'sin',
  'cos',
  'tanh',
  'sigmoid',
  'relu',
  'gelu',
  'silu',
  'softplus',
  'add',
  'sub',
  'mul',
  'div',
  'pow',
  'maximum',
  'minimum',
  'clamp',
  'where',
  'maskedFill',
  'logicalNot',
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  // reductions
  'sum',
  'mean',
  'prod',
  'max',
  'min',
  'argmax',
  'argmin',
  'std',
  'var',
  'logsumexp',
  'softmax',
  'logSoftmax',
  // linear algebra
  'matmul',
  'mm',
  'bmm',
  'dot',
  'outer',
  // shape and indexing
  'reshape',
  'view',
  'permute',
  'transpose',
  't',
  'squeeze',
  'unsqueeze',
  'flatten',
  'expand',
  'contiguous',
  'clone',
  'detach',
  'cat',
  'stack',
  'split',
  'chunk',
  'narrow',
  'select',
  'slice',
  'gather',
  'indexSelect',
  'scatterAdd',
  'indexAdd',
  // neural network ops
  'conv1d',
  'conv2d',
  'maxPool2d',
  'maxPool2dWithIndices',
  'avgPool2d',
  'adaptiveAvgPool2d',
] as const;

const builtins = new Set<string>();
for (const name of BUILTIN_OPS) {
  const value = (tensorOps as Record<string, unknown>)[name];
  if (typeof value !== 'function') continue; // an op this build of @wiregrad/tensor does not have
  register(name, value as Fn);
  builtins.add(name);
}

/** The names peers may call without registering anything (Note [Builtin operators]). */
export function builtinNames(): string[] {
  return [...builtins].sort();
}

/** Pre-registered tensor functions travel as SCRIPT_CALL, user functions as PYTHON_CALL. */
export function isBuiltin(name: string): boolean {
  return builtins.has(name) && byName.get(name) === (tensorOps as Record<string, unknown>)[name];
}
