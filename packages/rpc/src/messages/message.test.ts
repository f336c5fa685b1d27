import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Tensor, arange, tensor } from '@wiregrad/tensor';
import { RpcError } from '../errors.js';
import { HEADER_BYTES, WIRE_VERSION, decodeHeader, decodeMessage, encodeMessage, writeHeader } from './message.js';
import { INLINE_MAX_BYTES } from './tensorFrames.js';
import { MessageType, MessageTypeFlags, isRequest, isResponse, messageKind, messageTypeName } from './messageType.js';

/** Equal shapes and elements. */
const sameValues = (a: Tensor, b: Tensor) => JSON.stringify(a.tolist()) === JSON.stringify(b.tolist());

const ctx = { deviceMap: {}, peer: 0 };

function protocolError(f: () => unknown): RpcError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RpcError);
    expect((e as RpcError).code).toBe('PROTOCOL');
    return e as RpcError;
  }
  throw new Error('expected an RpcError PROTOCOL');
}

describe('MessageType', () => {
  it("has every numeric value of PyTorch's message.h, plus wiregrad's liveness and membership messages", () => {
    expect(MessageTypeFlags).toEqual({ REQUEST_TYPE: 0x100, RESPONSE_TYPE: 0x200 });
    expect(MessageType).toEqual({
      SCRIPT_CALL: 0x100,
      SCRIPT_RET: 0x201,
      PYTHON_CALL: 0x102,
      PYTHON_RET: 0x203,
      SCRIPT_REMOTE_CALL: 0x104,
      PYTHON_REMOTE_CALL: 0x105,
      REMOTE_RET: 0x206,
      SCRIPT_RREF_FETCH_CALL: 0x107,
      PYTHON_RREF_FETCH_CALL: 0x108,
      SCRIPT_RREF_FETCH_RET: 0x209,
      PYTHON_RREF_FETCH_RET: 0x20a,
      RREF_USER_DELETE: 0x10b,
      RREF_FORK_REQUEST: 0x10c,
      RREF_CHILD_ACCEPT: 0x10d,
      RREF_ACK: 0x20e,
      FORWARD_AUTOGRAD_REQ: 0x10f,
      FORWARD_AUTOGRAD_RESP: 0x210,
      BACKWARD_AUTOGRAD_REQ: 0x111,
      BACKWARD_AUTOGRAD_RESP: 0x212,
      CLEANUP_AUTOGRAD_CONTEXT_REQ: 0x113,
      CLEANUP_AUTOGRAD_CONTEXT_RESP: 0x214,
      RUN_WITH_PROFILING_REQ: 0x115,
      RUN_WITH_PROFILING_RESP: 0x216,
      RREF_BACKWARD_REQ: 0x117,
      RREF_BACKWARD_RESP: 0x218,
      EXCEPTION: 0x237,
      UNKNOWN: 0x3c,
      HEARTBEAT_REQ: 0x140,
      HEARTBEAT_RESP: 0x241,
      JOIN_REQ: 0x142,
      JOIN_RESP: 0x243,
      LEAVE_REQ: 0x144,
      LEAVE_RESP: 0x245,
      ACK: 0x146,
      NOTIFY: 0x148,
      NOTIFY_RECEIVED: 0x249,
    });
  });

  it('every type has a kind that agrees with its REQUEST_TYPE / RESPONSE_TYPE flag (Note [Message kinds])', () => {
    for (const t of Object.values(MessageType)) {
      const kind = messageKind(t);
      if (kind === 'request') expect([isRequest(t), isResponse(t)], messageTypeName(t)).toEqual([true, false]);
      else if (kind === 'unknown') expect([isRequest(t), isResponse(t)]).toEqual([false, false]);
      else expect([isRequest(t), isResponse(t)], messageTypeName(t)).toEqual([false, true]);
    }
    expect(messageKind(MessageType.EXCEPTION)).toBe('exception');
  });

  it('tells requests from responses by their flag', () => {
    expect(isRequest(MessageType.RREF_FORK_REQUEST)).toBe(true);
    expect(isResponse(MessageType.RREF_FORK_REQUEST)).toBe(false);
    expect(isResponse(MessageType.RREF_ACK)).toBe(true);
    expect(isResponse(MessageType.EXCEPTION)).toBe(true);
    expect(messageTypeName(0x10f)).toBe('FORWARD_AUTOGRAD_REQ');
    expect(messageTypeName(0x999)).toBe('0x999');
  });
});

describe('message framing (Note [Message framing])', () => {
  it('a call without tensors is one frame: the 20-byte header, then the payload', () => {
    const frames = encodeMessage(
      { type: MessageType.PYTHON_CALL, id: 2 ** 40 + 7, payload: { fn: 'f', args: [1] } },
      ctx,
    );
    expect(frames).toHaveLength(1);
    expect(decodeHeader(frames[0])).toEqual({ type: MessageType.PYTHON_CALL, id: 2 ** 40 + 7 });
    expect(decodeMessage(frames, ctx)).toEqual({
      type: MessageType.PYTHON_CALL,
      id: 2 ** 40 + 7,
      payload: { fn: 'f', args: [1] },
    });
  });

  it('each tensor above INLINE_MAX_BYTES is a frame of its own, straight from its storage', () => {
    const t = arange(0, INLINE_MAX_BYTES / 8 + 1, 1, { dtype: 'float64' });
    const frames = encodeMessage({ type: MessageType.UNKNOWN, id: 3, payload: [t, 'x', t] }, ctx);
    expect(frames).toHaveLength(3);
    expect(frames[1]!.buffer).toBe(t.storage.data.buffer);
    expect(frames[1]!.byteLength).toBe(INLINE_MAX_BYTES + 8);
    const [a, x, b] = decodeMessage(frames, ctx).payload as [typeof t, string, typeof t];
    expect([sameValues(a, t), x, sameValues(b, t), a.dtype]).toEqual([true, 'x', true, 'float64']);
  });

  it('tensors of at most INLINE_MAX_BYTES travel inside the payload: the message stays one frame (Note [Small tensors travel inline])', () => {
    const small = tensor([1, 2, 3], { dtype: 'float64' });
    const limit = arange(0, INLINE_MAX_BYTES / 4, 1, { dtype: 'float32' });
    const frames = encodeMessage({ type: MessageType.UNKNOWN, id: 3, payload: [small, 'x', limit] }, ctx);
    expect(frames).toHaveLength(1);
    const [a, x, b] = decodeMessage(frames, ctx).payload as [typeof small, string, typeof small];
    expect([a.tolist(), x, sameValues(b, limit), a.dtype, b.dtype]).toEqual([
      [1, 2, 3],
      'x',
      true,
      'float64',
      'float32',
    ]);
    // the arrived tensor owns its memory: the received frame may be reused
    expect(a.storage.data.buffer).not.toBe(frames[0]!.buffer);
  });

  it('rejects a short header, another wire version, an unknown type (keeping the id to answer), and an unsafe id', () => {
    expect(protocolError(() => decodeHeader(new Uint8Array(5))).message).toContain('expected at least 20');
    const head = new Uint8Array(HEADER_BYTES);
    writeHeader(head, MessageType.PYTHON_CALL, 1);
    head[0] = 9;
    expect(protocolError(() => decodeHeader(head)).message).toBe(
      `unsupported wire version 9 (this worker speaks ${WIRE_VERSION})`,
    );
    writeHeader(head, 0x999, 42);
    const unknown = protocolError(() => decodeHeader(head));
    expect([unknown.message, unknown.messageId]).toEqual(['unknown message type 2457', 42]);
    writeHeader(head, MessageType.PYTHON_CALL, 1);
    head[11] = 0xff;
    expect(protocolError(() => decodeHeader(head)).message).toContain('not a safe integer');
  });

  it('rejects tensor frames that are missing, extra or of the wrong size, naming the message id', () => {
    const n = INLINE_MAX_BYTES / 4 + 1;
    const frames = encodeMessage(
      { type: MessageType.UNKNOWN, id: 5, payload: arange(0, n, 1, { dtype: 'float32' }) },
      ctx,
    );
    const missing = protocolError(() => decodeMessage(frames.slice(0, 1), ctx));
    expect([missing.message, missing.messageId]).toEqual([
      'tensor frame 0 is missing (message has 0 tensor frames)',
      5,
    ]);
    expect(protocolError(() => decodeMessage([...frames, new Uint8Array(4)], ctx)).message).toBe(
      'message carries 2 tensor frames but its payload refers to 1',
    );
    expect(protocolError(() => decodeMessage([frames[0]!, new Uint8Array(3)], ctx)).message).toBe(
      `tensor frame 0 has 3 bytes, expected ${4 * n} for float32 [${n}]`,
    );
  });

  it('fuzz: random frames never crash the decoder; they decode or throw RpcError PROTOCOL', () => {
    const header = fc.tuple(fc.constantFrom(...Object.values(MessageType), 0, 0x999), fc.nat()).map(([type, id]) => {
      const h = new Uint8Array(HEADER_BYTES);
      writeHeader(h, type, id);
      return h;
    });
    const head = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.tuple(header, fc.uint8Array({ maxLength: 64 })).map(([h, p]) => new Uint8Array([...h, ...p])),
    );
    fc.assert(
      fc.property(head, fc.array(fc.uint8Array({ maxLength: 32 }), { maxLength: 3 }), (first, rest) => {
        try {
          decodeMessage([first, ...rest], ctx);
        } catch (e) {
          expect(e).toBeInstanceOf(RpcError);
          expect((e as RpcError).code).toBe('PROTOCOL');
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('fuzz: truncating or flipping a byte of a valid message is detected or harmless, never a crash', () => {
    const frames = encodeMessage(
      {
        type: MessageType.PYTHON_CALL,
        id: 1,
        payload: { fn: 'f', args: [tensor([1, 2, 3]), 'x', 1n, new Map([[1, new Float64Array([2])]]), undefined] },
      },
      ctx,
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: frames.length - 1 }),
        fc.nat(),
        fc.boolean(),
        fc.integer({ min: 0, max: 255 }),
        (which, at, truncate, byte) => {
          const copy = frames.map((f) => new Uint8Array(f));
          const target = copy[which]!;
          if (truncate) copy[which] = target.slice(0, at % Math.max(1, target.byteLength));
          else target[at % target.byteLength] = byte;
          try {
            decodeMessage(copy, ctx);
          } catch (e) {
            expect((e as RpcError).code).toBe('PROTOCOL');
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
