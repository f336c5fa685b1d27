import { Decoder, Encoder, ExtensionCodec } from '@msgpack/msgpack';
import { type DType, Tensor, typedArrayFor, device as toDevice, TensorError } from '@wiregrad/tensor';
import { RpcError } from '../errors.js';

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

const TYPED: Record<string, { ctor: new (b: ArrayBuffer) => ArrayBufferView }> = {
  Float32Array: { ctor: Float32Array },
  Float64Array: { ctor: Float64Array },
  Int32Array: { ctor: Int32Array },
  Int16Array: { ctor: Int16Array },
  Int8Array: { ctor: Int8Array },
  Uint32Array: { ctor: Uint32Array },
  Uint16Array: { ctor: Uint16Array },
  Uint8ClampedArray: { ctor: Uint8ClampedArray },
};

// Encoders and decoders are reusable but not reentrant (extensions encode nested values), so
// each nesting depth gets its own instance; construction is what a fresh one per call costs.
const encoders: Encoder<CodecContext>[] = [];
const decoders: Decoder<CodecContext>[] = [];
let depth = 0;

function pack(v: unknown, ctx: CodecContext): Uint8Array {
  const enc = (encoders[depth] ??= new Encoder({ extensionCodec: codec, context: ctx }));
  (enc as unknown as { context: CodecContext }).context = ctx;
  depth++;
  try {
    return enc.encode(v).slice();
  } finally {
    depth--;
  }
}

function unpack(b: Uint8Array, ctx: CodecContext): unknown {
  const dec = (decoders[depth] ??= new Decoder({ extensionCodec: codec, context: ctx }));
  (dec as unknown as { context: CodecContext }).context = ctx;
  depth++;
  try {
    return dec.decode(b);
  } finally {
    depth--;
  }
}

/** A copy of `bytes` in a fresh (aligned) ArrayBuffer. */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/**
 * Note [Tensor frames]
 * A tensor in a payload is encoded as a small extension record {i, dtype, shape, device};
 * its bytes travel as frame i after the payload, taken straight from the (contiguous)
 * storage, so tensors never pass through a string or a JS number array. A non-contiguous
 * view is made contiguous first and arrives with the same values and shape. The device it
 * lands on follows the sender's device map for the receiver; a gpu tensor without a map
 * is an error, never a silent copy.
 */
function encodeTensor(t: Tensor, ctx: CodecContext): unknown {
  const src = t.device.toString();
  const target = ctx.deviceMap[src] ?? (t.device.type === 'cpu' ? 'cpu' : null);
  if (target === null) {
    throw new RpcError(
      'DEVICE_MAP',
      `tensor on ${src} cannot be sent without a device map entry for it (set backendOptions.deviceMaps[<worker>]['${src}'])`,
    );
  }
  const i = ctx.tensors.length;
  ctx.tensors.push(t.device.type === 'cpu' ? t.contiguous() : t.cpu().contiguous());
  return { i, dtype: t.dtype, shape: [...t.shape], device: target, rg: t.requiresGrad };
}

function decodeTensor(data: unknown, ctx: CodecContext): Tensor {
  const { i, dtype, shape, device, rg } = data as { i: number; dtype: DType; shape: number[]; device: string; rg?: boolean };
  const frame = ctx.frames[i];
  if (!frame) throw new RpcError('PROTOCOL', `tensor frame ${i} is missing (message has ${ctx.frames.length} tensor frames)`);
  const arr = typedArrayFor(dtype, 0);
  const bytesPer = arr.BYTES_PER_ELEMENT;
  const numel = shape.reduce((p, s) => p * s, 1);
  if (frame.byteLength !== numel * bytesPer) {
    throw new RpcError('PROTOCOL', `tensor frame ${i} has ${frame.byteLength} bytes, expected ${numel * bytesPer} for ${dtype} [${shape.join(', ')}]`);
  }
  const aligned = frame.byteOffset % bytesPer === 0 ? frame : new Uint8Array(ownBuffer(frame));
  const Ctor = arr.constructor as new (b: ArrayBufferLike, o: number, n: number) => Float32Array;
  const data_ = new Ctor(aligned.buffer, aligned.byteOffset, numel);
  try {
    const t = Tensor.fromTypedArray(data_, shape, dtype);
    const placed = device === 'cpu' ? t : t.to(toDevice(device as 'cpu'));
    // like a pickled torch tensor, it arrives as a leaf that keeps requires_grad
    if (rg === true && (dtype === 'float32' || dtype === 'float64')) placed.requiresGrad = true;
    return placed;
  } catch (e) {
    if (e instanceof TensorError) throw new RpcError('PROTOCOL', `bad tensor in message: ${e.message}`);
    throw e;
  }
}

function register<T>(type: number, hook: ExtensionHook<T>): void {
  codec.register({
    type,
    encode: (v, ctx) => (hook.test(v) ? pack(hook.encode(v, ctx), ctx) : null),
    decode: (bytes, _type, ctx) => hook.decode(unpack(bytes, ctx), ctx),
  });
}

register<Tensor>(EXT_TENSOR, { test: (v): v is Tensor => v instanceof Tensor, encode: encodeTensor, decode: decodeTensor });
register<bigint>(EXT_BIGINT, { test: (v): v is bigint => typeof v === 'bigint', encode: (v) => v.toString(), decode: (d) => BigInt(d as string) });
register<Map<unknown, unknown>>(EXT_MAP, {
  test: (v): v is Map<unknown, unknown> => v instanceof Map,
  encode: (v) => [...v.entries()],
  decode: (d) => new Map(d as [unknown, unknown][]),
});
register<ArrayBufferView>(EXT_TYPED, {
  test: (v): v is ArrayBufferView => ArrayBuffer.isView(v) && !(v instanceof Uint8Array) && !(v instanceof DataView) && v.constructor.name in TYPED,
  encode: (v) => ({ kind: v.constructor.name, bytes: new Uint8Array(v.buffer, v.byteOffset, v.byteLength) }),
  decode: (d) => {
    const { kind, bytes } = d as { kind: string; bytes: Uint8Array };
    const entry = TYPED[kind];
    if (!entry) throw new RpcError('PROTOCOL', `unknown typed array kind ${kind}`);
    return new entry.ctor(ownBuffer(bytes));
  },
});
register<Error>(EXT_ERROR, {
  test: (v): v is Error => v instanceof Error,
  encode: (v) => ({ name: v.name, message: v.message, stack: v.stack ?? '', code: (v as { code?: unknown }).code ?? null }),
  decode: (d) => {
    const { name, message, stack, code } = d as { name: string; message: string; stack: string; code: unknown };
    const e = new Error(message);
    e.name = name;
    e.stack = stack;
    if (code !== null) (e as Error & { code: unknown }).code = code;
    return e;
  },
});
register<undefined>(EXT_UNDEFINED, { test: (v): v is undefined => v === undefined, encode: () => 0, decode: () => undefined });

/** Lets other modules (RRefs) travel inside payloads as their own extension type. */
export function registerExtension<T>(type: number, hook: ExtensionHook<T>): void {
  if (type < EXT_USER_BASE) throw new RpcError('INVALID_ARGUMENT', `extension type ${type} is reserved`);
  register(type, hook);
}

export function encodePayload(value: unknown, ctx: CodecContext): Uint8Array {
  return pack(value, ctx);
}

export function decodePayload(bytes: Uint8Array, ctx: CodecContext): unknown {
  return unpack(bytes, ctx);
}
