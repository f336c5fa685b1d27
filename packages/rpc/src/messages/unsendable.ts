import { RpcError } from '../errors.js';

/**
 * Built-in classes whose instances MessagePack would send as an empty or partial map, losing
 * what they hold: the codec refuses them rather than deliver `{}`.
 */
const LOSSY: readonly (abstract new (...a: never[]) => object)[] = [
  Set,
  WeakMap,
  WeakSet,
  WeakRef,
  Promise,
  ArrayBuffer,
  SharedArrayBuffer,
  RegExp,
];

/** What a value is, when it cannot travel in a payload ('a function', 'a symbol', 'a Set'); null when it can. */
export function unsendableKind(v: unknown): string | null {
  if (typeof v === 'function') return v.name ? `a function (${v.name})` : 'a function';
  if (typeof v === 'symbol') return `a symbol (${v.toString()})`;
  if (typeof v !== 'object' || v === null) return null;
  const cls = LOSSY.find((c) => v instanceof c);
  return cls ? `${/^[AEIOU]/.test(cls.name) ? 'an' : 'a'} ${cls.name}` : null;
}

/** Thrown by the codec on an unsendable value; encodePayloadShared turns it into INVALID_ARGUMENT with its path. */
export class UnsendableValue extends Error {}

/** The path and kind of the first unsendable value in `root`, walking arrays, plain objects and Maps. */
function findUnsendable(root: unknown): { path: (string | number)[]; kind: string } | null {
  const seen = new Set<object>();
  const walk = (v: unknown, path: (string | number)[]): { path: (string | number)[]; kind: string } | null => {
    const kind = unsendableKind(v);
    if (kind) return { path, kind };
    if (typeof v !== 'object' || v === null || seen.has(v)) return null;
    seen.add(v);
    const proto: unknown = Object.getPrototypeOf(v);
    const entries: [string | number, unknown][] =
      v instanceof Map
        ? [...v.entries()].map(([k, x], i) => [typeof k === 'string' ? k : i, x])
        : Array.isArray(v)
          ? v.map((x, i) => [i, x])
          : proto === Object.prototype || proto === null
            ? Object.entries(v)
            : [];
    for (const [k, x] of entries) {
      const found = walk(x, [...path, k]);
      if (found) return found;
    }
    return null;
  };
  return walk(root, []);
}

const show = (path: (string | number)[]): string =>
  path
    .map((k) => (typeof k === 'number' ? `[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`))
    .join('');

/**
 * The INVALID_ARGUMENT error for a payload that holds an unsendable value, naming the rpc
 * argument's position when it sits in a call's `args` (`rpc argument 1 (args[1].f) is a function`).
 * Null when the payload holds none (the failure was something else).
 */
export function unsendableError(payload: unknown): RpcError | null {
  const found = findUnsendable(payload);
  if (!found) return null;
  const at = found.path.indexOf('args');
  const position = found.path[at + 1];
  const where =
    at >= 0 && typeof position === 'number'
      ? `rpc argument ${position} (args${show(found.path.slice(at + 1))})`
      : `the value at ${show(found.path) || 'the top'} of the message`;
  return new RpcError(
    'INVALID_ARGUMENT',
    `${where} is ${found.kind}, which cannot be sent to another worker: send data (numbers, strings, plain objects ` +
      'and arrays, Maps, typed arrays, Errors, Tensors, RRefs) and call functions by their registered name',
  );
}
