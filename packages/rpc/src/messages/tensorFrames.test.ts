import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ExtData, encode } from '@msgpack/msgpack';
import { type DType, Tensor, arange, tensor, zeros } from '@wiregrad/tensor';
import type { RpcError } from '../errors.js';
import { HEADER_BYTES, decodeMessage, encodeMessage, writeHeader } from './message.js';
import { MessageType } from './messageType.js';
import { writeTensorRecord } from './tensorFrames.js';

/** Equal shapes and elements. */
const sameValues = (a: Tensor, b: Tensor) => JSON.stringify(a.tolist()) === JSON.stringify(b.tolist());

const ctx = { deviceMap: {}, peer: 0 };

/** Sends `payload` through encode and decode; returns the frames and what arrived. */
function roundTrip<T>(payload: T): { frames: Uint8Array[]; back: T } {
  const frames = encodeMessage({ type: MessageType.UNKNOWN, id: 1, payload }, ctx);
  return { frames, back: decodeMessage(frames, ctx).payload as T };
}

describe('tensor frames (Note [Tensor frames])', () => {
  it.each<[DType, number[]]>([
    ['float32', [2, 3]],
    ['float64', [4]],
    ['int32', [1, 2, 2]],
    ['bool', [3]],
    ['float32', []],
    ['float64', [0, 3]],
  ])('%s %j keeps dtype, shape and values', (dtype, shape) => {
    const numel = shape.reduce((p, s) => p * s, 1);
    const t = arange(numel).to(dtype).reshape(shape);
    const { back } = roundTrip(t);
    expect([back.dtype, back.shape, back.tolist()]).toEqual([dtype, shape, t.tolist()]);
  });

  it('a frame holds its storage (Note [Frames hold their storage]): disposed right after it is encoded, the tensor keeps its memory and the allocator hands out another buffer', () => {
    const t = arange(0, 8192, 1, { dtype: 'float32' });
    const frames = encodeMessage({ type: MessageType.UNKNOWN, id: 1, payload: [t] }, ctx);
    const storage = t.storage;
    const buffer = storage.data.buffer;
    t.dispose();
    expect(storage.holds).toBe(1); // the frame's hold
    const next = zeros([8192]);
    expect(next.storage.data.buffer).not.toBe(buffer);
    // what ZeroMQ reads is still the tensor's data
    expect(Array.from(new Float32Array(frames[1]!.buffer, frames[1]!.byteOffset, 8192)).slice(0, 4)).toEqual([
      0, 1, 2, 3,
    ]);
    next.dispose();
  });

  it('a non-contiguous view stays the same non-contiguous view (PyTorch test_non_cont_tensors)', () => {
    const base = arange(25).reshape([5, 5]).to('float32');
    const view = base.narrow(1, 2, 2);
    const inline = roundTrip(view);
    expect(view.isContiguous()).toBe(false);
    expect(inline.frames).toHaveLength(1); // Note [Small tensors travel inline]
    expect(inline.back.isContiguous()).toBe(false);
    expect([inline.back.shape, inline.back.strides, inline.back.tolist()]).toEqual([[5, 2], [5, 1], view.tolist()]);
    // in a frame, only the span the view reads travels: rows 0..199, columns 0..149 -> elements 0..39949
    const wide = arange(200 * 200)
      .reshape([200, 200])
      .to('float32')
      .narrow(1, 0, 150);
    const { frames, back } = roundTrip(wide);
    expect(frames[1]!.byteLength).toBe(39950 * 4);
    expect([back.shape, back.strides, sameValues(back, wide)]).toEqual([[200, 150], [200, 1], true]);
    const transposed = roundTrip(arange(6).reshape([2, 3]).t()).back;
    expect([transposed.strides, transposed.tolist()]).toEqual([
      [1, 3],
      [
        [0, 3],
        [1, 4],
        [2, 5],
      ],
    ]);
  });

  it('an expanded view keeps its zero strides', () => {
    const { back } = roundTrip(tensor([1, 2, 3]).expand([4, 3]));
    expect([back.strides, back.tolist()]).toEqual([[0, 1], Array.from({ length: 4 }, () => [1, 2, 3])]);
    const row = arange(0, 8192, 1, { dtype: 'float32' });
    const framed = roundTrip(row.expand([4, 8192]));
    expect(framed.frames[1]!.byteLength).toBe(8192 * 4);
    expect([framed.back.strides, sameValues(framed.back.select(0, 3), row)]).toEqual([[0, 1], true]);
  });

  it('a small view of a big storage is copied contiguous instead (PyTorch cloneSparseTensors rule)', () => {
    const big = zeros([8192, 64]);
    const column = big.narrow(1, 3, 1);
    const { frames, back } = roundTrip(column);
    expect(frames[1]!.byteLength).toBe(8192 * 4);
    expect([back.shape, back.isContiguous()]).toEqual([[8192, 1], true]);
  });

  it('a slice at an offset sends only its own elements', () => {
    expect(roundTrip(arange(12).reshape([3, 4]).select(0, 2)).back.tolist()).toEqual([8, 9, 10, 11]);
    const row = arange(3 * 8192)
      .reshape([3, 8192])
      .select(0, 2);
    const { frames, back } = roundTrip(row);
    expect(frames[1]!.byteLength).toBe(8192 * 4);
    expect(sameValues(back, row)).toBe(true);
  });

  it('a small view of a storage in the shared wasm memory (Note [Storages in wasm memory]) travels inline', () => {
    const big = arange(0, 65536, 1, { dtype: 'float32' }).mul(2);
    const { frames, back } = roundTrip(big.narrow(0, 10, 4));
    expect(frames).toHaveLength(1);
    expect(back.tolist()).toEqual([20, 22, 24, 26]);
  });

  it('requiresGrad survives; tensors shared in a payload arrive as one frame each', () => {
    const w = tensor([0.5], { requiresGrad: true });
    const { back } = roundTrip({ w, again: [w] });
    expect(back.w.requiresGrad).toBe(true);
    expect(back.again[0]!.tolist()).toEqual([0.5]);
  });

  it('property: any strided view arrives with its values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.nat(),
        (shape, permSeed, sliceSeed) => {
          const numel = shape.reduce((p, s) => p * s, 1);
          let t: Tensor = arange(numel).to('float64').reshape(shape);
          const dims = shape.map((_, i) => i);
          if (dims.length > 1) t = t.transpose(permSeed % dims.length, (permSeed + 1) % dims.length);
          const d = sliceSeed % t.ndim;
          if (t.shape[d]! > 1) t = t.narrow(d, 1, t.shape[d]! - 1);
          const { back } = roundTrip(t);
          expect(back.tolist()).toEqual(t.tolist());
          expect(back.shape).toEqual(t.shape);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('malformed tensor records are protocol errors, never crashes (Note [Tensor records])', () => {
    const t = tensor([1, 2]);
    const frames = encodeMessage({ type: MessageType.UNKNOWN, id: 1, payload: t }, ctx);
    const record = writeTensorRecord({ dtype: 'float32', shape: [2], device: 'cpu', rg: false, b: new Uint8Array(8) });
    const at = Buffer.from(frames[0]!).indexOf(Buffer.from(record.subarray(0, 8)));
    expect(at).toBeGreaterThan(0);
    const tamper = (edit: (head: Buffer, view: DataView) => void) => {
      const head = Buffer.from(frames[0]!);
      edit(head, new DataView(head.buffer, head.byteOffset + at));
      try {
        decodeMessage([head], ctx);
      } catch (e) {
        return [(e as RpcError).code, (e as RpcError).message];
      }
      return null;
    };
    const recordError = (what: string) => ['PROTOCOL', `bad tensor record in message: ${what}`];
    expect(tamper(() => {})).toBeNull();
    expect(tamper((_, v) => v.setUint8(0, 99))).toEqual(recordError('dtype 99'));
    expect(tamper((_, v) => v.setUint8(1, 64))).toEqual(recordError('flags 64'));
    expect(tamper((_, v) => v.setUint8(2, 200))).toEqual(recordError('32 bytes for 200 dimensions'));
    expect(tamper((_, v) => v.setFloat64(8, 1.5, true))).toEqual(recordError('shape [1.5]'));
    expect(tamper((_, v) => v.setFloat64(8, -2, true))).toEqual(recordError('shape [-2]'));
    expect(tamper((_, v) => v.setFloat64(8, 3, true))).toEqual([
      'PROTOCOL',
      'tensor bytes has 8 bytes, expected 12 for float32 [3]',
    ]);
    expect(tamper((h) => h.write('CP"', at + 16))).toEqual(recordError('device "CP\\""'));
    expect(tamper((h) => h.write('xyz', at + 16))).toEqual([
      'PROTOCOL',
      expect.stringContaining('bad tensor in message'),
    ]);
    // a framed record pointing past the frames
    const big = encodeMessage({ type: MessageType.UNKNOWN, id: 1, payload: zeros([8192]) }, ctx);
    expect(() => decodeMessage([big[0]!], ctx)).toThrow('tensor frame 0 is missing (message has 0 tensor frames)');
  });

  it('property: any bytes as a tensor record decode to a tensor or fail as PROTOCOL', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), (bytes, sane) => {
        if (sane && bytes.length > 3) [bytes[0], bytes[1], bytes[2]] = [bytes[0]! % 4, bytes[1]! % 8, bytes[2]! % 4];
        const payload = encode(new ExtData(1, bytes));
        const head = new Uint8Array(HEADER_BYTES + payload.byteLength);
        writeHeader(head, MessageType.UNKNOWN, 1);
        head.set(payload, HEADER_BYTES);
        try {
          expect(decodeMessage([head], ctx).payload).toBeInstanceOf(Tensor);
        } catch (e) {
          expect((e as RpcError).code).toBe('PROTOCOL');
        }
      }),
      { numRuns: 1000 },
    );
  });
});
