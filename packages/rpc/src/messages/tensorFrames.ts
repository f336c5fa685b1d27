import { type DType, DTYPES, Tensor, TensorError, type TypedArray, device as toDevice } from '@wiregrad/tensor';
import { RpcError } from '../errors.js';

/** What a tensor is inside a payload; its elements are tensor frame `i` of the message, or `b` (Note [Small tensors travel inline]). */
export interface WireTensor {
  i?: number;
  b?: Uint8Array;
  dtype: DType;
  shape: readonly number[];
  /** only for a strided (non-contiguous) view: its strides over the elements of the frame */
  strides?: number[];
  device: string;
  rg: boolean;
}

/** PyTorch's cloneSparseTensors rule: a view is copied when its span is big and mostly unused. */
const MIN_RECOPY_BYTES = 8 * 1024;
const MIN_RECOPY_MULTIPLE = 2;

/** Elements from the first to the last one a view reads (its strides are never negative). */
function spanOf(shape: readonly number[], strides: readonly number[]): number {
  let last = 0;
  for (let d = 0; d < shape.length; d++) {
    if (shape[d] === 0) return 0;
    last += (shape[d]! - 1) * strides[d]!;
  }
  return last + 1;
}

/**
 * Note [Small tensors travel inline]
 * A ZeroMQ frame has a fixed cost on both ends, well above copying a few KiB: zeromq.js sends
 * a frame above 128 bytes without copying, which takes a reference the I/O thread gives back
 * later (and Note [Frames hold their storage] a FinalizationRegistry entry), and every frame
 * is one more zmq_msg to build and receive. So the bytes of a tensor of at most
 * INLINE_MAX_BYTES travel inside the payload (`b`, MessagePack bin) instead of a frame of
 * their own: a call with a few small tensors stays one frame, which may also share a batch
 * (Note [Batched messages]), and the receiver gets a tensor that owns its memory instead of
 * a view pinning the whole received frame. Bigger tensors keep their frames: there the copies
 * (into the payload, and out of it on the receiver) would cost more than the frame.
 */
export const INLINE_MAX_BYTES = 16 * 1024;

/**
 * Note [Tensor frames]
 * A tensor in a payload is a small record (WireTensor); its bytes travel as a ZeroMQ frame
 * of their own, a view straight into the storage, so tensors never pass through a string
 * or a JS number array. A contiguous tensor sends its `numel` elements. A strided view
 * sends the span of storage it reads and its strides, so it arrives as the same view
 * (PyTorch's test_non_cont_tensors: non-contiguous stays non-contiguous), unless the span
 * is at least 8 KiB and twice the useful bytes: then, as PyTorch does, a contiguous copy
 * goes instead. The receiver checks the frame's size against dtype, shape and strides.
 * The frame aliases the storage until ZeroMQ has sent it: like PyTorch, a caller must not
 * modify a tensor it passed to a pending call.
 */
export function tensorFrame(t: Tensor, device: string, frames: Tensor[]): WireTensor {
  const host = t.device.type === 'cpu' ? t : t.cpu();
  const record: WireTensor = { dtype: t.dtype, shape: [...t.shape], device, rg: t.requiresGrad };
  let sent = host;
  if (!host.isContiguous()) {
    const bytesPer = host.storage.data.BYTES_PER_ELEMENT;
    const span = spanOf(host.shape, host.strides);
    const wasteful = span * bytesPer >= MIN_RECOPY_BYTES && span >= MIN_RECOPY_MULTIPLE * host.numel;
    if (wasteful || host.strides.some((s) => s < 0)) sent = host.contiguous();
    else record.strides = [...host.strides];
  }
  const bytes = sentBytes(sent);
  // See Note [Small tensors travel inline]: the encoder copies `b` into the payload at once
  if (bytes.byteLength <= INLINE_MAX_BYTES) record.b = bytes;
  else {
    record.i = frames.length;
    frames.push(sent);
  }
  return record;
}

/** The storage bytes a tensor sends: its contiguous elements, or the span its strided view reads. */
function sentBytes(t: Tensor): Uint8Array {
  const data = t.storage.data;
  const bytesPer = data.BYTES_PER_ELEMENT;
  const elements = t.isContiguous() ? t.numel : spanOf(t.shape, t.strides);
  return new Uint8Array(data.buffer, data.byteOffset + t.offset * bytesPer, elements * bytesPer);
}

/**
 * Note [Frames hold their storage]
 * A tensor frame is a view of the tensor's own memory, and zeromq.js sends frames above 128
 * bytes without copying: its I/O thread reads them after send() returned, and it drops its
 * reference to the view only once the bytes are out. So the frame holds its storage (Note
 * [Releasing storages] in @wiregrad/tensor) until the view itself is collected: a tensor
 * disposed right after `rpcAsync(to, f, [t])` keeps its memory until ZeroMQ is done with
 * it, and the caching allocator never hands that buffer to another tensor meanwhile.
 */
const framesInFlight = new FinalizationRegistry<Tensor['storage']>((storage) => storage.release());

/** The bytes of a tensor frame (the contiguous elements, or the span a strided view reads), holding its storage. */
export function frameBytes(t: Tensor): Uint8Array {
  const view = sentBytes(t);
  t.storage.retain();
  framesInFlight.register(view, t.storage);
  return view;
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

const RG = 1;
const INLINE = 2;
const STRIDED = 4;
const FIXED_BYTES = 8;
const DEVICE_NAME = /^[a-z]+(:\d+)?$/;

/**
 * Note [Tensor records]
 * A WireTensor travels as the bytes of its extension (Note [One codec for every extension]),
 * in a fixed little-endian layout rather than as a nested MessagePack map: a tensor is in
 * almost every message, and a map of six keys cost a second encoder pass and a second copy
 * of the inline bytes on each end.
 *   byte 0 dtype (index in DTYPES) | byte 1 flags (1 requires grad, 2 inline, 4 strided) |
 *   byte 2 ndim | byte 3 device name length | bytes 4-7 frame index (u32) |
 *   ndim float64 sizes | ndim float64 strides (strided only) | the device name (ASCII) |
 *   zero padding to a multiple of 8 | the inline bytes (inline only)
 * The padding puts the elements at an 8-byte boundary of the extension's bytes, which the
 * decoder copies into a buffer of their own (Note [Faithful payloads]), so a received inline
 * tensor is a view of that copy: one copy on each end. readTensorRecord checks every field
 * and the lengths; anything else is PROTOCOL.
 */
export function writeTensorRecord(r: WireTensor): Uint8Array {
  const ndim = r.shape.length;
  if (ndim > 255) throw new RpcError('INVALID_ARGUMENT', `a tensor of ${ndim} dimensions cannot be sent (at most 255)`);
  if (r.device !== 'cpu' && !DEVICE_NAME.test(r.device))
    throw new RpcError('DEVICE_MAP', `cannot send a tensor to device '${r.device}'`);
  const dims = r.strides ? 2 * ndim : ndim;
  const deviceAt = FIXED_BYTES + 8 * dims;
  const dataAt = (deviceAt + r.device.length + 7) & ~7;
  const out = new Uint8Array(dataAt + (r.b?.byteLength ?? 0));
  const view = new DataView(out.buffer);
  out[0] = DTYPES.indexOf(r.dtype);
  out[1] = (r.rg ? RG : 0) | (r.b ? INLINE : 0) | (r.strides ? STRIDED : 0);
  out[2] = ndim;
  out[3] = r.device.length;
  view.setUint32(4, r.i ?? 0, true);
  for (let d = 0; d < ndim; d++) {
    view.setFloat64(FIXED_BYTES + 8 * d, r.shape[d]!, true);
    if (r.strides) view.setFloat64(FIXED_BYTES + 8 * (ndim + d), r.strides[d]!, true);
  }
  for (let k = 0; k < r.device.length; k++) out[deviceAt + k] = r.device.charCodeAt(k);
  if (r.b) out.set(r.b, dataAt);
  return out;
}

/** The WireTensor in `data` (Note [Tensor records]); PROTOCOL for anything malformed. */
/** The typed array over a received tensor's bytes, by dtype. */
type ViewCtor = (new (buffer: ArrayBufferLike, byteOffset: number, length: number) => TypedArray) & {
  readonly BYTES_PER_ELEMENT: number;
};
const VIEW_CTORS: Readonly<Record<DType, ViewCtor>> = {
  float32: Float32Array,
  float64: Float64Array,
  int32: Int32Array,
  bool: Uint8Array,
};

const bad = (what: string): RpcError => new RpcError('PROTOCOL', `bad tensor record in message: ${what}`);

export function readTensorRecord(data: Uint8Array): WireTensor {
  if (data.byteLength < FIXED_BYTES) throw bad(`${data.byteLength} bytes`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const dtype = DTYPES[data[0]!];
  if (dtype === undefined) throw bad(`dtype ${data[0]}`);
  const flags = data[1]!;
  if ((flags & ~(RG | INLINE | STRIDED)) !== 0) throw bad(`flags ${flags}`);
  const ndim = data[2]!;
  const dims = flags & STRIDED ? 2 * ndim : ndim;
  const deviceAt = FIXED_BYTES + 8 * dims;
  const dataAt = (deviceAt + data[3]! + 7) & ~7;
  if (data.byteLength < dataAt || (!(flags & INLINE) && data.byteLength !== dataAt))
    throw bad(`${data.byteLength} bytes for ${ndim} dimensions`);
  const sizes: number[] = [];
  for (let d = 0; d < ndim; d++) sizes.push(view.getFloat64(FIXED_BYTES + 8 * d, true));
  if (!sizes.every(isCount)) throw bad(`shape ${JSON.stringify(sizes)}`);
  // the tensor made from this record interns its shape (Note [Interned dims] in @wiregrad/tensor)
  const shape = sizes;
  const cpu = data[3] === 3 && data[deviceAt] === 99 && data[deviceAt + 1] === 112 && data[deviceAt + 2] === 117;
  let device = cpu ? 'cpu' : '';
  if (!cpu) {
    for (let k = deviceAt; k < deviceAt + data[3]!; k++) device += String.fromCharCode(data[k]!);
    if (!DEVICE_NAME.test(device)) throw bad(`device ${JSON.stringify(device)}`);
  }
  const record: WireTensor = { dtype, shape, device, rg: (flags & RG) !== 0 };
  if (flags & STRIDED) {
    const strides: number[] = [];
    for (let d = 0; d < ndim; d++) strides.push(view.getFloat64(FIXED_BYTES + 8 * (ndim + d), true));
    if (!strides.every(isCount)) throw bad(`strides ${JSON.stringify(strides)} for shape [${shape.join(', ')}]`);
    record.strides = strides;
  }
  if (flags & INLINE) record.b = data.subarray(dataAt);
  else record.i = view.getUint32(4, true);
  return record;
}

/**
 * Note [Large messages and the GC]
 * A received tensor frame is a view of the frame zeromq.js received: above 128 bytes it hands
 * ZeroMQ's message buffer to JavaScript as an external buffer (no copy), which V8 counts towards
 * its old generation's allocation limit (about 2.3x the live heap after the last mark-compact)
 * until a GC finds it dead. With the ~12.5 MB heap of an rpc process that limit leaves ~16.8 MB
 * of room, so every received 16 MiB tensor started an incremental mark-compact (10-25 ms of
 * marking): the 16 MiB echo between two processes took 24-27 ms against 14.5-16 for a raw
 * ZeroMQ echo in the same processes, which crossed the limit every other message (~1 against
 * ~0.5 mark-compacts per message per process). A frame cannot be freed before the GC, nor
 * received into memory of our own (zeromq.js has no such call), and the limit cannot be raised
 * once Node runs. So processes that receive tensors of 16 MB or more should start Node with
 * `--initial-old-space-size=64` (MB; or more): the echo then took 15.4-17.2 ms against raw
 * 13.7-18.8 (29 Nov, 4 runs each, idle 2-core EPYC). `pnpm bench rpc` prints that row too.
 */

/**
 * Rebuilds a tensor from its record and its bytes: inline (the decoder's own copy), or its
 * frame (copied only when misaligned); `framed` says which it used.
 */
export function tensorFromFrame(
  record: WireTensor,
  frames: readonly Uint8Array[],
): { tensor: Tensor; framed: boolean } {
  const { i, b, dtype, shape, strides, device, rg } = record;
  const frame = b ?? frames[i!];
  if (!frame)
    throw new RpcError('PROTOCOL', `tensor frame ${i} is missing (message has ${frames.length} tensor frames)`);
  const Ctor = VIEW_CTORS[dtype];
  const bytesPer = Ctor.BYTES_PER_ELEMENT;
  const elements = strides ? spanOf(shape, strides) : shape.reduce((p, s) => p * s, 1);
  if (frame.byteLength !== elements * bytesPer) {
    throw new RpcError(
      'PROTOCOL',
      `tensor ${b ? 'bytes' : `frame ${i}`} has ${frame.byteLength} bytes, expected ${elements * bytesPer} for ${dtype} [${shape.join(', ')}]`,
    );
  }
  const aligned = frame.byteOffset % bytesPer === 0 ? frame : new Uint8Array(frame);
  const values = new Ctor(aligned.buffer, aligned.byteOffset, elements);
  try {
    const flat = Tensor.fromTypedArray(values, strides ? [elements] : shape, dtype);
    const t = strides ? new Tensor(flat.storage, shape, strides, 0) : flat;
    const placed = device === 'cpu' ? t : t.to(toDevice(device as 'cpu'));
    // like an unpickled torch tensor, it arrives as a leaf that keeps requires_grad
    if (rg === true && (dtype === 'float32' || dtype === 'float64')) placed.requiresGrad = true;
    return { tensor: placed, framed: b === undefined };
  } catch (e) {
    if (e instanceof TensorError) throw new RpcError('PROTOCOL', `bad tensor in message: ${e.message}`);
    throw e;
  }
}
