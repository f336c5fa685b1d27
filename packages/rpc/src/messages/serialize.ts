import { Decoder, Encoder, ExtData, ExtensionCodec } from '@msgpack/msgpack';
import { Tensor } from '@wiregrad/tensor';
import { RpcError } from '../errors.js';
import { type WireTensor, tensorFrame, tensorFromFrame } from './tensorFrames.js';

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
const EXT_UNDEFINED = 6;
/** first type free for other modules (RRefs use it) */
export const EXT_USER_BASE = 16;

const codec = new ExtensionCodec<CodecContext>();

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
 * Note [Faithful payloads]
 * MessagePack writes `undefined` as nil and -0 as the integer 0. A JS callee tells them
 * apart (a default parameter sees undefined, not null; 1 / -0 is -Infinity), so every
 * encoder routes both before msgpack's own rules: undefined as an empty extension, -0 as a
 * float64. A decoded Uint8Array is msgpack's view into the received frame (a Buffer that
 * keeps the whole frame alive); every decoder copies it into a plain Uint8Array of its own.
 * Everything else is msgpack's, plus the extensions below.
 */
const UNDEFINED = new ExtData(EXT_UNDEFINED, new Uint8Array(0));

interface EncoderInternals {
  doEncode(v: unknown, depth: number): void;
  encodeExtension(ext: ExtData): void;
  encodeNumberAsFloat(n: number): void;
  context: CodecContext;
}

function faithfulEncoder(): Encoder<CodecContext> {
  const enc = new Encoder<CodecContext>({ extensionCodec: codec, context: {} as CodecContext });
  const internals = enc as unknown as EncoderInternals;
  const doEncode = internals.doEncode.bind(enc);
  internals.doEncode = (v, depth) => {
    if (v === undefined) internals.encodeExtension(UNDEFINED);
    else if (v === 0 && 1 / v < 0) internals.encodeNumberAsFloat(v);
    else doEncode(v, depth);
  };
  return enc;
}

interface DecoderInternals {
  decodeBinary(byteLength: number, headOffset: number): Uint8Array;
  context: CodecContext;
}

function faithfulDecoder(): Decoder<CodecContext> {
  const dec = new Decoder<CodecContext>({ extensionCodec: codec, context: {} as CodecContext });
  const internals = dec as unknown as DecoderInternals;
  const decodeBinary = internals.decodeBinary.bind(dec);
  internals.decodeBinary = (byteLength, headOffset) => new Uint8Array(decodeBinary(byteLength, headOffset));
  return dec;
}

// Encoders and decoders are reusable but not reentrant (extensions encode nested values), so
// each nesting depth gets its own instance; construction is what a fresh one per call costs.
// pack() returns a view of its encoder's buffer: the caller copies it (the parent encoder
// writes an extension's bytes into its own buffer; encodeMessage copies the top level).
const encoders: Encoder<CodecContext>[] = [];
const decoders: Decoder<CodecContext>[] = [];
let depth = 0;

function pack(v: unknown, ctx: CodecContext): Uint8Array {
  const enc = (encoders[depth] ??= faithfulEncoder());
  (enc as unknown as EncoderInternals).context = ctx;
  depth++;
  try {
    return enc.encodeSharedRef(v);
  } finally {
    depth--;
  }
}

function unpack(b: Uint8Array, ctx: CodecContext): unknown {
  const dec = (decoders[depth] ??= faithfulDecoder());
  (dec as unknown as DecoderInternals).context = ctx;
  depth++;
  try {
    return dec.decode(b);
  } finally {
    depth--;
  }
}

/** A tensor becomes a record and a frame (Note [Tensor frames]), landing where the device map says. */
function encodeTensor(t: Tensor, ctx: CodecContext): WireTensor {
  const src = t.device.toString();
  const target = ctx.deviceMap[src] ?? (t.device.type === 'cpu' ? 'cpu' : null);
  if (target === null) {
    throw new RpcError(
      'DEVICE_MAP',
      `tensor on ${src} cannot be sent without a device map entry for it (set backendOptions.deviceMaps[<worker>]['${src}'])`,
    );
  }
  return tensorFrame(t, target, ctx.tensors);
}

function decodeTensor(data: unknown, ctx: CodecContext): Tensor {
  const { tensor, framed } = tensorFromFrame(data, ctx.frames);
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

function register<T>(type: number, hook: ExtensionHook<T>): void {
  codec.register({
    type,
    encode: (v, ctx) => (hook.test(v) ? pack(hook.encode(v, ctx), ctx) : null),
    decode: (bytes, _type, ctx) => hook.decode(unpack(bytes, ctx), ctx),
  });
}

register<Tensor>(EXT_TENSOR, {
  test: (v): v is Tensor => v instanceof Tensor,
  encode: encodeTensor,
  decode: decodeTensor,
});
register<bigint>(EXT_BIGINT, {
  test: (v): v is bigint => typeof v === 'bigint',
  encode: (v) => v.toString(),
  decode: (d) => {
    if (typeof d !== 'string' || !/^-?\d+$/.test(d))
      throw new RpcError('PROTOCOL', `bad bigint in message: ${String(d)}`);
    return BigInt(d);
  },
});
register<Map<unknown, unknown>>(EXT_MAP, {
  test: (v): v is Map<unknown, unknown> => v instanceof Map,
  encode: (v) => [...v.entries()],
  decode: (d) => {
    if (!Array.isArray(d) || !d.every((e) => Array.isArray(e) && e.length === 2))
      throw new RpcError('PROTOCOL', 'bad Map in message');
    return new Map(d as [unknown, unknown][]);
  },
});
register<ArrayBufferView>(EXT_TYPED, {
  test: (v): v is ArrayBufferView => ArrayBuffer.isView(v) && Object.hasOwn(TYPED, v.constructor.name),
  encode: (v) => ({ kind: v.constructor.name, bytes: new Uint8Array(v.buffer, v.byteOffset, v.byteLength) }),
  decode: decodeTyped,
});
register<Error>(EXT_ERROR, {
  test: (v): v is Error => v instanceof Error,
  encode: (v) => ({
    name: v.name,
    message: v.message,
    stack: v.stack ?? '',
    code: (v as { code?: unknown }).code ?? null,
  }),
  decode: decodeError,
});
codec.register({ type: EXT_UNDEFINED, encode: () => null, decode: () => undefined });

/** Lets other modules (RRefs) travel inside payloads as their own extension type. */
export function registerExtension<T>(type: number, hook: ExtensionHook<T>): void {
  if (type < EXT_USER_BASE) throw new RpcError('INVALID_ARGUMENT', `extension type ${type} is reserved`);
  register(type, hook);
}

/** The payload's MessagePack bytes, as a view valid until the next encode: copy it. */
export function encodePayloadShared(value: unknown, ctx: CodecContext): Uint8Array {
  return pack(value, ctx);
}

export function decodePayload(bytes: Uint8Array, ctx: CodecContext): unknown {
  return unpack(bytes, ctx);
}
