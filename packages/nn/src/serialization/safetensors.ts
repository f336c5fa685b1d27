import { type DType, Tensor } from '@wiregrad/autograd';
import { NnError } from '../errors.js';

/**
 * Note [safetensors]
 * The safetensors layout, as safetensors.torch.save_file writes it: an 8-byte little-endian
 * header length N, N bytes of JSON ({name: {dtype, shape, data_offsets: [begin, end]}} plus an
 * optional "__metadata__" of strings, padded with spaces to a multiple of 8), then the raw
 * little-endian data, offsets relative to its start. serialize() writes what safetensors
 * writes, byte for byte: metadata first, tensors ordered by dtype (F64, F32, I32, BOOL: the
 * Rust crate's dtype order, descending) then name, so every tensor stays aligned.
 * deserialize() validates like the Rust crate: the header fits the file, is a JSON object,
 * every dtype is known, every byte range matches its shape, and the ranges tile the data with
 * no gap, overlap or excess. F16/BF16 load as float32; I64/I16/I8/U8/U16/U32 as int32 (values
 * outside int32 are refused); a bad file is an error naming the tensor, never a wrong tensor.
 */
const HEADER_LIMIT = 100_000_000;

interface DtypeInfo {
  bytes: number;
  /** decodes `bytes` little-endian bytes of `n` elements into a wiregrad dtype */
  read(
    view: DataView,
    n: number,
    name: string,
  ): { data: Float32Array | Float64Array | Int32Array | Uint8Array; dtype: DType };
}

const intRead =
  (bytes: number, get: (v: DataView, o: number) => number | bigint) => (view: DataView, n: number, name: string) => {
    const data = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const v = get(view, i * bytes);
      const x = typeof v === 'bigint' ? Number(v) : v;
      if (x > 2147483647 || x < -2147483648)
        throw new NnError(
          'SAFETENSORS',
          `tensor '${name}': value ${String(v)} does not fit int32, wiregrad's integer dtype`,
        );
      data[i] = x;
    }
    return { data, dtype: 'int32' as DType };
  };

/** IEEE half and bfloat16 to float32. */
function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

const DTYPES: Record<string, DtypeInfo> = {
  F64: {
    bytes: 8,
    read: (v, n) => ({ data: Float64Array.from({ length: n }, (_, i) => v.getFloat64(i * 8, true)), dtype: 'float64' }),
  },
  F32: {
    bytes: 4,
    read: (v, n) => ({ data: Float32Array.from({ length: n }, (_, i) => v.getFloat32(i * 4, true)), dtype: 'float32' }),
  },
  F16: {
    bytes: 2,
    read: (v, n) => ({
      data: Float32Array.from({ length: n }, (_, i) => halfToFloat(v.getUint16(i * 2, true))),
      dtype: 'float32',
    }),
  },
  BF16: {
    bytes: 2,
    read: (v, n) => {
      const bits = new Uint32Array(n);
      for (let i = 0; i < n; i++) bits[i] = v.getUint16(i * 2, true) << 16;
      return { data: new Float32Array(bits.buffer), dtype: 'float32' };
    },
  },
  I64: { bytes: 8, read: intRead(8, (v, o) => v.getBigInt64(o, true)) },
  U32: { bytes: 4, read: intRead(4, (v, o) => v.getUint32(o, true)) },
  I32: { bytes: 4, read: intRead(4, (v, o) => v.getInt32(o, true)) },
  I16: { bytes: 2, read: intRead(2, (v, o) => v.getInt16(o, true)) },
  U16: { bytes: 2, read: intRead(2, (v, o) => v.getUint16(o, true)) },
  I8: { bytes: 1, read: intRead(1, (v, o) => v.getInt8(o)) },
  U8: { bytes: 1, read: intRead(1, (v, o) => v.getUint8(o)) },
  BOOL: {
    bytes: 1,
    read: (v, n) => ({ data: Uint8Array.from({ length: n }, (_, i) => (v.getUint8(i) ? 1 : 0)), dtype: 'bool' }),
  },
};

/** What serialize writes for each wiregrad dtype, in the Rust crate's order (higher first). */
const WRITE: Record<DType, { name: string; rank: number; bytes: number }> = {
  float64: { name: 'F64', rank: 3, bytes: 8 },
  float32: { name: 'F32', rank: 2, bytes: 4 },
  int32: { name: 'I32', rank: 1, bytes: 4 },
  bool: { name: 'BOOL', rank: 0, bytes: 1 },
};

const encoder = new TextEncoder();

/** A state dict as safetensors bytes (tensors on any device; metadata: string values only). */
export function serialize(tensors: Record<string, Tensor>, metadata?: Record<string, string>): Uint8Array {
  if (typeof tensors !== 'object' || tensors === null)
    throw new NnError('INVALID_ARGUMENT', 'serialize expects a record of tensors');
  const entries = Object.entries(tensors);
  for (const [name, t] of entries)
    if (!(t instanceof Tensor)) throw new NnError('INVALID_ARGUMENT', `'${name}' is not a Tensor`);
  if (metadata && Object.values(metadata).some((v) => typeof v !== 'string'))
    throw new NnError('INVALID_ARGUMENT', 'safetensors metadata values must be strings');
  entries.sort(([an, a], [bn, b]) => WRITE[b.dtype].rank - WRITE[a.dtype].rank || (an < bn ? -1 : an > bn ? 1 : 0));
  const header: Record<string, unknown> = metadata ? { __metadata__: metadata } : {};
  let offset = 0;
  for (const [name, t] of entries) {
    const size = t.numel * WRITE[t.dtype].bytes;
    header[name] = { dtype: WRITE[t.dtype].name, shape: t.shape, data_offsets: [offset, offset + size] };
    offset += size;
  }
  let json = encoder.encode(JSON.stringify(header));
  const padded = Math.ceil(json.length / 8) * 8;
  if (padded !== json.length) json = Uint8Array.from([...json, ...new Array<number>(padded - json.length).fill(0x20)]);
  const out = new Uint8Array(8 + json.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  let at = 8 + json.length;
  for (const [, t] of entries) {
    const values = t.cpu().toTypedArray();
    const bytes = WRITE[t.dtype].bytes;
    for (let i = 0; i < values.length; i++, at += bytes) {
      const x = Number(values[i]);
      if (t.dtype === 'float64') view.setFloat64(at, x, true);
      else if (t.dtype === 'float32') view.setFloat32(at, x, true);
      else if (t.dtype === 'int32') view.setInt32(at, x, true);
      else view.setUint8(at, x ? 1 : 0);
    }
  }
  return out;
}

const bad = (message: string) => new NnError('SAFETENSORS', `invalid safetensors data: ${message}`);

interface Entry {
  name: string;
  dtype: string;
  shape: number[];
  begin: number;
  end: number;
}

/** The header of safetensors bytes, validated (Note [safetensors]). */
function readHeader(bytes: Uint8Array): { entries: Entry[]; metadata: Record<string, string>; dataStart: number } {
  if (!(bytes instanceof Uint8Array)) throw new NnError('INVALID_ARGUMENT', 'deserialize expects a Uint8Array');
  if (bytes.length < 8) throw bad(`${bytes.length} bytes is too short for the 8-byte header length`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getBigUint64(0, true);
  if (n > BigInt(HEADER_LIMIT)) throw bad(`header length ${n} is over the ${HEADER_LIMIT}-byte limit`);
  if (8 + Number(n) > bytes.length) throw bad(`header length ${n} runs past the end of the ${bytes.length}-byte file`);
  const text = new TextDecoder('utf-8', { fatal: true });
  let header: unknown;
  try {
    header = JSON.parse(text.decode(bytes.subarray(8, 8 + Number(n))));
  } catch (e) {
    throw bad(`the header is not UTF-8 JSON (${(e as Error).message})`);
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header))
    throw bad('the header is not a JSON object');
  const { __metadata__: meta = {}, ...rest } = header as Record<string, unknown>;
  if (typeof meta !== 'object' || meta === null || Object.values(meta).some((v) => typeof v !== 'string'))
    throw bad('__metadata__ must map strings to strings');
  const entries = Object.entries(rest).map(([name, info]): Entry => {
    const {
      dtype,
      shape,
      data_offsets: offsets,
    } = (info ?? {}) as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof dtype !== 'string' || !(dtype in DTYPES))
      throw bad(`tensor '${name}' has an unknown dtype ${JSON.stringify(dtype)}`);
    if (!Array.isArray(shape) || shape.some((s) => !Number.isSafeInteger(s) || s < 0))
      throw bad(`tensor '${name}' has an invalid shape ${JSON.stringify(shape)}`);
    if (!Array.isArray(offsets) || offsets.length !== 2 || offsets.some((o) => !Number.isSafeInteger(o) || o < 0))
      throw bad(`tensor '${name}' has invalid data_offsets ${JSON.stringify(offsets)}`);
    const [begin, end] = offsets as [number, number];
    const expected = (shape as number[]).reduce((a, b) => a * b, 1) * DTYPES[dtype]!.bytes;
    if (end < begin || end - begin !== expected)
      throw bad(
        `tensor '${name}' has ${end - begin} bytes at [${begin}, ${end}) but ${dtype} ${JSON.stringify(shape)} needs ${expected}`,
      );
    return { name, dtype, shape: shape as number[], begin, end };
  });
  const dataStart = 8 + Number(n);
  const sorted = [...entries].sort((a, b) => a.begin - b.begin || a.end - b.end);
  let at = 0;
  for (const e of sorted) {
    if (e.begin !== at)
      throw bad(`tensor '${e.name}' starts at byte ${e.begin}, not ${at}: byte ranges overlap or leave a gap`);
    at = e.end;
  }
  if (dataStart + at !== bytes.length)
    throw bad(`the tensors end at byte ${dataStart + at} of a ${bytes.length}-byte file`);
  return { entries, metadata: meta as Record<string, string>, dataStart };
}

/** safetensors bytes as tensors (cpu), in the header's order. */
export function deserialize(bytes: Uint8Array): Record<string, Tensor> {
  const { entries, dataStart } = readHeader(bytes);
  const out: Record<string, Tensor> = {};
  for (const e of entries) {
    const n = e.shape.reduce((a, b) => a * b, 1);
    const view = new DataView(bytes.buffer, bytes.byteOffset + dataStart + e.begin, e.end - e.begin);
    const { data, dtype } = DTYPES[e.dtype]!.read(view, n, e.name);
    out[e.name] = Tensor.fromTypedArray(data, [n], dtype).reshape(e.shape);
  }
  return out;
}

/** The "__metadata__" strings of safetensors bytes ({} when there are none). */
export function safetensorsMetadata(bytes: Uint8Array): Record<string, string> {
  return { ...readHeader(bytes).metadata };
}
