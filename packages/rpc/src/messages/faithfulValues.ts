import { ExtData } from '@msgpack/msgpack';

/** Extension types of the values MessagePack cannot tell apart (Note [Faithful payloads]). */
export const EXT_UNDEFINED = 6;
export const EXT_NEGATIVE_ZERO = 7;

const UNDEFINED = new ExtData(EXT_UNDEFINED, new Uint8Array(0));
const NEGATIVE_ZERO = new ExtData(EXT_NEGATIVE_ZERO, new Uint8Array(0));

/** msgpack's own depth limit: deeper (or cyclic) values are left for its error. */
const MAX_DEPTH = 100;

/**
 * Note [Faithful payloads]
 * MessagePack writes `undefined` as nil and -0 as the integer 0. A JS callee tells them
 * apart (a default parameter sees undefined, not null; 1 / -0 is -Infinity), so before msgpack
 * sees a payload, `faithful` replaces both by empty extensions (EXT_UNDEFINED,
 * EXT_NEGATIVE_ZERO) in the plain objects and arrays msgpack walks; it copies a container only
 * when something in it changed, and leaves every extension value (`isOpaque`) to the codec.
 * A decoded Uint8Array is msgpack's view into the received frame (a Buffer that keeps the whole
 * frame alive); after decoding, `ownBinaries` replaces every such view in the decoded objects
 * and arrays by a plain Uint8Array of its own. Both passes use msgpack's public API only, so
 * an upstream release cannot change them; the golden wire files pin the bytes.
 */
export function faithful(v: unknown, isOpaque: (o: object) => boolean, depth = 0): unknown {
  if (v === undefined) return UNDEFINED;
  if (v === 0) return 1 / v < 0 ? NEGATIVE_ZERO : v;
  if (typeof v !== 'object' || v === null || depth >= MAX_DEPTH || isOpaque(v)) return v;
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const y = faithful(x, isOpaque, depth + 1);
      if (y !== x) (out ??= v.slice())[i] = y;
    }
    return out ?? v;
  }
  const record = v as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const k of Object.keys(record)) {
    const x = record[k];
    const y = faithful(x, isOpaque, depth + 1);
    if (y !== x) (out ??= { ...record })[k] = y;
  }
  return out ?? v;
}

/** Whether `bytes` can hold a MessagePack bin at all (bin 8/16/32 start with 0xc4..0xc6). */
function mayHoldBinary(bytes: Uint8Array): boolean {
  return bytes.includes(0xc4) || bytes.includes(0xc5) || bytes.includes(0xc6);
}

/** `decoded`, msgpack's value of `bytes`, with every Uint8Array view into `bytes` copied. */
export function ownBinaries(decoded: unknown, bytes: Uint8Array): unknown {
  return mayHoldBinary(bytes) ? own(decoded, bytes.buffer, 0) : decoded;
}

function own(v: unknown, buffer: ArrayBufferLike, depth: number): unknown {
  if (typeof v !== 'object' || v === null || depth > MAX_DEPTH) return v;
  if (v instanceof Uint8Array) return v.buffer === buffer ? new Uint8Array(v) : v;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto === Array.prototype) {
    const a = v as unknown[];
    for (let i = 0; i < a.length; i++) {
      const y = own(a[i], buffer, depth + 1);
      if (y !== a[i]) a[i] = y;
    }
  } else if (proto === Object.prototype) {
    const r = v as Record<string, unknown>;
    for (const k of Object.keys(r)) {
      const y = own(r[k], buffer, depth + 1);
      if (y !== r[k]) r[k] = y;
    }
  }
  return v;
}
