import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type DType, type Tensor, arange, tensor, zeros } from '@wiregrad/tensor';
import type { RpcError } from '../errors.js';
import { decodeMessage, encodeMessage } from './message.js';
import { MessageType } from './messageType.js';

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
    const t = arange(0, 4096, 1, { dtype: 'float32' });
    const frames = encodeMessage({ type: MessageType.UNKNOWN, id: 1, payload: [t] }, ctx);
    const storage = t.storage;
    const buffer = storage.data.buffer;
    t.dispose();
    expect(storage.holds).toBe(1); // the frame's hold
    const next = zeros([4096]);
    expect(next.storage.data.buffer).not.toBe(buffer);
    // what ZeroMQ reads is still the tensor's data
    expect(Array.from(new Float32Array(frames[1]!.buffer, frames[1]!.byteOffset, 4096)).slice(0, 4)).toEqual([
      0, 1, 2, 3,
    ]);
    next.dispose();
  });

  it('a non-contiguous view stays the same non-contiguous view (PyTorch test_non_cont_tensors)', () => {
    const base = arange(25).reshape([5, 5]).to('float32');
    const view = base.narrow(1, 2, 2);
    const { frames, back } = roundTrip(view);
    expect(view.isContiguous()).toBe(false);
    expect(back.isContiguous()).toBe(false);
    expect([back.shape, back.strides, back.tolist()]).toEqual([[5, 2], [5, 1], view.tolist()]);
    // only the span the view reads travels: rows 0..4, columns 2..3 -> elements 2..23
    expect(frames[1]!.byteLength).toBe(22 * 4);
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
    const { frames, back } = roundTrip(tensor([1, 2, 3]).expand([4, 3]));
    expect(frames[1]!.byteLength).toBe(12);
    expect([back.strides, back.tolist()]).toEqual([[0, 1], Array.from({ length: 4 }, () => [1, 2, 3])]);
  });

  it('a small view of a big storage is copied contiguous instead (PyTorch cloneSparseTensors rule)', () => {
    const big = zeros([1024, 64]);
    const column = big.narrow(1, 3, 1);
    const { frames, back } = roundTrip(column);
    expect(frames[1]!.byteLength).toBe(1024 * 4);
    expect([back.shape, back.isContiguous()]).toEqual([[1024, 1], true]);
  });

  it('a slice at an offset sends only its own elements', () => {
    const row = arange(12).reshape([3, 4]).select(0, 2);
    const { frames, back } = roundTrip(row);
    expect(frames[1]!.byteLength).toBe(16);
    expect(back.tolist()).toEqual([8, 9, 10, 11]);
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

  it('malformed tensor records are protocol errors, never crashes', () => {
    const frames = encodeMessage({ type: MessageType.UNKNOWN, id: 1, payload: tensor([1, 2]) }, ctx);
    const tamper = (from: string, to: string) => {
      const head = Buffer.from(frames[0]!);
      const at = head.indexOf(from);
      expect(at).toBeGreaterThan(0);
      head.write(to, at);
      try {
        decodeMessage([head, frames[1]!], ctx);
      } catch (e) {
        return [(e as RpcError).code, (e as RpcError).message];
      }
      return null;
    };
    expect(tamper('float32', 'float99')).toEqual(['PROTOCOL', 'bad tensor record in message: dtype float99']);
    expect(tamper('cpu', 'xyz')).toEqual(['PROTOCOL', expect.stringContaining('bad tensor in message')]);
  });
});
