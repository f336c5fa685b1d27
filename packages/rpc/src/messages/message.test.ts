import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tensor, arange } from '@wiregrad/tensor';
import { RpcError } from '../errors.js';
import { decodeMessage, encodeMessage } from './message.js';
import { MessageType, isRequest, isResponse } from './messageType.js';

const ctx = { deviceMap: {}, peer: 0 };

describe('MessageType', () => {
  it("has PyTorch's numeric values and flags", () => {
    expect(MessageType.SCRIPT_CALL).toBe(0x100);
    expect(MessageType.FORWARD_AUTOGRAD_REQ).toBe(0x10f);
    expect(MessageType.BACKWARD_AUTOGRAD_RESP).toBe(0x212);
    expect(MessageType.EXCEPTION).toBe(0x237);
    expect(isRequest(MessageType.RREF_FORK_REQUEST)).toBe(true);
    expect(isResponse(MessageType.RREF_ACK)).toBe(true);
  });
});

describe('message framing', () => {
  it('round-trips tensors as separate frames (non-contiguous views arrive contiguous with the same values)', () => {
    const view = arange(6).reshape([2, 3]).t();
    const frames = encodeMessage({ type: MessageType.PYTHON_CALL, id: 3, payload: { a: view, b: [tensor(1.5, { dtype: 'float64' })] } }, ctx);
    expect(frames).toHaveLength(4);
    expect(frames[2]!.byteLength).toBe(6 * 4);
    const msg = decodeMessage(frames, ctx);
    const { a, b } = msg.payload as { a: typeof view; b: (typeof view)[] };
    expect(a.tolist()).toEqual([[0, 3], [1, 4], [2, 5]]);
    expect(a.dtype).toBe('int32');
    expect(b[0]!.dtype).toBe('float64');
    expect(b[0]!.item()).toBe(1.5);
  });

  it('rejects a tensor frame of the wrong size', () => {
    const frames = encodeMessage({ type: MessageType.PYTHON_CALL, id: 3, payload: tensor([1, 2]) }, ctx);
    frames[2] = new Uint8Array(3);
    expect(() => decodeMessage(frames, ctx)).toThrow(RpcError);
  });

  it('fuzz: random frames never crash the decoder; they decode or throw RpcError PROTOCOL', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 4 }), (frames) => {
        try {
          decodeMessage(frames, ctx);
        } catch (e) {
          expect(e).toBeInstanceOf(RpcError);
          expect((e as RpcError).code).toBe('PROTOCOL');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('fuzz: truncating a valid message anywhere is detected', () => {
    const frames = encodeMessage({ type: MessageType.PYTHON_CALL, id: 1, payload: { fn: 'f', args: [tensor([1, 2, 3]), 'x', 1n] } }, ctx);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: frames.length - 1 }), fc.nat(), (which, cut) => {
        const copy = frames.map((f) => f.slice());
        copy[which] = copy[which]!.slice(0, cut % Math.max(1, copy[which]!.byteLength));
        try {
          decodeMessage(copy, ctx);
        } catch (e) {
          expect((e as RpcError).code).toBe('PROTOCOL');
        }
      }),
    );
  });
});
