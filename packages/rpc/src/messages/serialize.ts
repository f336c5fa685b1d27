import {
  Decoder,
  EXT_TIMESTAMP,
  Encoder,
  ExtData,
  type ExtensionCodecType,
  decodeTimestampExtension,
  encodeTimestampExtension,
} from '@msgpack/msgpack';
import { Tensor } from '@wiregrad/tensor';
import { RpcError } from '../errors.js';
import { EXT_NEGATIVE_ZERO, EXT_UNDEFINED, faithful, ownBinaries } from './faithfulValues.js';
import { UnsendableValue, unsendableError, unsendableKind } from './unsendable.js';
import { readTensorRecord, tensorFrame, tensorFromFrame, writeTensorRecord } from './tensorFrames.js';

/** What encoding collects (tensors become out-of-band frames) and decoding reads back. */
export interface CodecContext {
  tensors: Tensor[];
  frames: Uint8Array[];
  /** the sender's device map towards the receiver: local device -> remote device */
  deviceMap: Readonly<Record<string, string>>;
  /** worker ids, for RRef (de)serialization hooks */
  peer: number;
}

export interface ExtensionHook<T> {
  test(v: unknown): v is T;
  encode(v: T, ctx: CodecContext): unknown;
  decode(data: unknown, ctx: CodecContext): unknown;
}

const EXT_TENSOR = 1;
const EXT_BIGINT = 2;
const EXT_MAP = 3;
const EXT_TYPED = 4;
const EXT_ERROR = 5;
/** first type free for other modules (RRefs use it) */
export const EXT_USER_BASE = 16;

type TypedCtor = new (b: ArrayBuffer) => ArrayBufferView;
const TYPED: Readonly<Record<string, TypedCtor>> = {
  Float32Array,
  Float64Array,
  Int8Array,
  Int16Array,
  Int32Array,
  Uint16Array,
  Uint32Array,
  Uint8ClampedArray,
  BigInt64Array,
  BigUint64Array,
};

/**
 * Note [Pooled codecs forget their message]
 * Encoders and decoders are reusable but not reentrant (extensions encode nested values), so
 * each nesting depth gets its own instance; construction is what a fresh one per call costs.
 * pack() returns a view of its encoder's buffer: the caller copies it (the parent encoder
 * writes an extension's bytes into its own buffer; encodeMessage copies the top level).
 * The extension codec reads the message's context (its tensors and frames) from `active`,
 * set for one call and given back afterwards: NO_CONTEXT once the message is done. Left in
 * place, the context kept the last message's frames reachable until the next message: a
 * received 16 MiB tensor frame stayed alive after its tensor was garbage (a heap snapshot
 * found it there; after forced GCs the process held 16 MiB more external memory than a raw
 * zeromq echo's).
 */
const NO_CONTEXT: CodecContext = { tensors: [], frames: [], deviceMap: Object.freeze({}), peer: -1 };
let active = NO_CONTEXT;
const encoders: Encoder[] = [];
const decoders: Decoder[] = [];
let depth = 0;

function pack(v: unknown, ctx: CodecContext): Uint8Array {
  const enc = (encoders[depth] ??= new Encoder({ extensionCodec: codec }));
  const outer = active;
  active = ctx;
  depth++;
  try {
    return enc.encodeSharedRef(faithful(v, isOpaque));
  } finally {
    depth--;
    active = outer;
  }
}

function unpack(b: Uint8Array, ctx: CodecContext): unknown {
  const dec = (decoders[depth] ??= new Decoder({ extensionCodec: codec }));
  const outer = active;
  active = ctx;
  depth++;
  try {
    return ownBinaries(dec.decode(b), b);
  } finally {
    depth--;
    active = outer;
  }
}

/** A tensor becomes a record and a frame (Note [Tensor frames]), landing where the device map says. */
function encodeTensor(t: Tensor, ctx: CodecContext): Uint8Array {
  const src = t.device.toString();
  const target = ctx.deviceMap[src] ?? (t.device.type === 'cpu' ? 'cpu' : null);
  if (target === null) {
    throw new RpcError(
      'DEVICE_MAP',
      `tensor on ${src} cannot be sent without a device map entry for it (set backendOptions.deviceMaps[<worker>]['${src}'])`,
    );
  }
  return writeTensorRecord(tensorFrame(t, target, ctx.tensors));
}

function decodeTensor(data: Uint8Array, ctx: CodecContext): Tensor {
  const { tensor, framed } = tensorFromFrame(readTensorRecord(data), ctx.frames);
  // ctx.tensors: the tensors that came in frames (decodeMessage checks every frame has one)
  if (framed) ctx.tensors.push(tensor);
  return tensor;
}

function decodeTyped(data: unknown): ArrayBufferView {
  const { kind, bytes } = (data ?? {}) as { kind?: unknown; bytes?: unknown };
  const Ctor = typeof kind === 'string' && Object.hasOwn(TYPED, kind) ? TYPED[kind]! : null;
  if (!Ctor || !(bytes instanceof Uint8Array))
    throw new RpcError('PROTOCOL', `bad typed array in message: ${String(kind)}`);
  // the decoder already copied `bytes` into a buffer of its own (aligned, offset 0)
  return new Ctor(bytes.buffer as ArrayBuffer);
}

function decodeError(data: unknown): Error {
  const { name, message, stack, code } = (data ?? {}) as {
    name?: unknown;
    message?: unknown;
    stack?: unknown;
    code?: unknown;
  };
  const e = new Error(String(message));
  e.name = String(name);
  e.stack = String(stack);
  if (code !== null && code !== undefined) (e as Error & { code: unknown }).code = code;
  return e;
}

const int64 = new BigInt64Array(1);
const int64Bytes = new Uint8Array(int64.buffer);

/**
 * A bigint as int64 (in the platform's byte order, as tensor bytes) when it fits, else its
 * decimal digits (always more than 8); an int64 comes back in a shared scratch array, which the
 * encoder copies into the message at once.
 */
function bigintBytes(v: bigint): Uint8Array {
  if (BigInt.asIntN(64, v) !== v) return new TextEncoder().encode(v.toString());
  int64[0] = v;
  return int64Bytes;
}

function decodeBigint(data: Uint8Array): bigint {
  if (data.byteLength === 8) {
    int64Bytes.set(data);
    return int64[0]!;
  }
  const digits = new TextDecoder().decode(data);
  if (!/^-?\d+$/.test(digits)) throw new RpcError('PROTOCOL', `bad bigint in message: ${digits}`);
  return BigInt(digits);
}

function decodeMap(d: unknown): Map<unknown, unknown> {
  if (!Array.isArray(d) || !d.every((e) => Array.isArray(e) && e.length === 2))
    throw new RpcError('PROTOCOL', 'bad Map in message');
  return new Map(d as [unknown, unknown][]);
}

/** Extensions of other modules (RRefs), tried in the order registered. */
const userHooks = new Map<number, ExtensionHook<unknown>>();

/** An extension whose value travels as a nested MessagePack value (the parent encoder copies its bytes at once). */
const nested = (type: number, v: unknown, ctx: CodecContext) => new ExtData(type, pack(v, ctx));

/**
 * Note [One codec for every extension]
 * msgpack's ExtensionCodec asks every registered extension, in turn, about every object it
 * meets, and the payload objects of a message (the envelope, the autograd metadata, argument
 * lists) are not extensions at all. This codec instead decides by type at once: bigints and
 * tensors have byte layouts of their own (int64 or digits; Note [Tensor records]); plain
 * objects and arrays (prototype Object.prototype or Array.prototype) are never extensions
 * and go straight back to msgpack; other objects are checked as ExtData (Note [Faithful
 * payloads]), Date (msgpack's timestamp), Tensor, Map, typed array, Error, and then the hooks
 * of registerExtension, in that order. A hook is therefore only asked about objects of some
 * class, which is what it is for. `isOpaque` is the same test without encoding: what
 * `faithful` must not look inside. A function, a symbol, or a built-in that msgpack would
 * write as an empty map (a Set, a Promise, an ArrayBuffer: unsendable.ts) is refused with
 * INVALID_ARGUMENT naming where it is.
 */
function isOpaque(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === Array.prototype) return false;
  if (v instanceof ExtData || v instanceof Date || v instanceof Tensor || v instanceof Map || v instanceof Error)
    return true;
  if (ArrayBuffer.isView(v)) return true;
  for (const hook of userHooks.values()) if (hook.test(v)) return true;
  return false;
}

const codec: ExtensionCodecType<undefined> = {
  tryToEncode(v: unknown): ExtData | null {
    if (typeof v === 'bigint') return new ExtData(EXT_BIGINT, bigintBytes(v));
    if (typeof v !== 'object' || v === null) return null;
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === Array.prototype) return null;
    if (v instanceof ExtData) return v;
    const ctx = active;
    if (v instanceof Date) return new ExtData(EXT_TIMESTAMP, encodeTimestampExtension(v)!);
    if (v instanceof Tensor) return new ExtData(EXT_TENSOR, encodeTensor(v, ctx));
    if (v instanceof Map) return nested(EXT_MAP, [...v.entries()], ctx);
    if (ArrayBuffer.isView(v) && Object.hasOwn(TYPED, v.constructor.name))
      return nested(
        EXT_TYPED,
        { kind: v.constructor.name, bytes: new Uint8Array(v.buffer, v.byteOffset, v.byteLength) },
        ctx,
      );
    if (v instanceof Error) {
      const code = (v as { code?: unknown }).code ?? null;
      return nested(EXT_ERROR, { name: v.name, message: v.message, stack: v.stack ?? '', code }, ctx);
    }
    for (const [type, hook] of userHooks) if (hook.test(v)) return nested(type, hook.encode(v, ctx), ctx);
    if (unsendableKind(v)) throw new UnsendableValue(); // not as the empty map msgpack would write
    return null;
  },
  decode(data: Uint8Array, type: number): unknown {
    const ctx = active;
    switch (type) {
      case EXT_TENSOR:
        // `data` is msgpack's view into the received frame: an inline tensor gets bytes of its own
        return decodeTensor(new Uint8Array(data), ctx);
      case EXT_BIGINT:
        return decodeBigint(data);
      case EXT_UNDEFINED:
        return undefined;
      case EXT_NEGATIVE_ZERO:
        return -0;
      case EXT_TIMESTAMP:
        return decodeTimestampExtension(data);
      case EXT_MAP:
        return decodeMap(unpack(data, ctx));
      case EXT_TYPED:
        return decodeTyped(unpack(data, ctx));
      case EXT_ERROR:
        return decodeError(unpack(data, ctx));
    }
    const hook = userHooks.get(type);
    if (!hook) throw new RpcError('PROTOCOL', `unknown extension type ${type} in message`);
    return hook.decode(unpack(data, ctx), ctx);
  },
};

/** Lets other modules (RRefs) travel inside payloads as their own extension type. */
export function registerExtension<T>(type: number, hook: ExtensionHook<T>): void {
  if (type < EXT_USER_BASE || type > 127)
    throw new RpcError('INVALID_ARGUMENT', `extension type ${type} is reserved (use ${EXT_USER_BASE} to 127)`);
  userHooks.set(type, hook as ExtensionHook<unknown>);
}

/** The payload's MessagePack bytes, as a view valid until the next encode: copy it. */
export function encodePayloadShared(value: unknown, ctx: CodecContext): Uint8Array {
  try {
    return pack(value, ctx);
  } catch (e) {
    // a function, a symbol (msgpack's `Unrecognized object`) or a lossy class: say which argument
    throw (!(e instanceof RpcError) && unsendableError(value)) || e;
  }
}

export function decodePayload(bytes: Uint8Array, ctx: CodecContext): unknown {
  return unpack(bytes, ctx);
}
