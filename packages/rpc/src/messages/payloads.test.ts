import { describe, expect, it } from 'vitest';
import { RpcError } from '../errors.js';
import { decodeMessage, encodeMessage, returnedValue, type RawMessage } from './message.js';
import { MessageType } from './messageType.js';
import { checkPayload } from './payloads.js';

const ctx = { deviceMap: {}, peer: 0 };
const wire = (msg: RawMessage) => decodeMessage(encodeMessage(msg, ctx), ctx);
const gid = { createdOn: 1, localId: 7 };

function errorOf(f: () => unknown): RpcError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RpcError);
    return e as RpcError;
  }
  throw new Error('expected an RpcError');
}

describe('one payload type per message type (Note [One payload type per message type])', () => {
  it('well-formed payloads of every rpc message pass their check and decode as sent', () => {
    const good: [number, unknown][] = [
      [MessageType.PYTHON_CALL, { fn: 'f', args: [1, 'x'] }],
      [MessageType.SCRIPT_CALL, { fn: 'torch.add', args: [] }],
      [MessageType.PYTHON_RET, { value: null }],
      [MessageType.PYTHON_REMOTE_CALL, { fn: 'f', args: [], rrefId: gid, forkId: null }],
      [MessageType.SCRIPT_REMOTE_CALL, { fn: 'f', args: [], rrefId: gid, forkId: gid }],
      [MessageType.REMOTE_RET, {}],
      [MessageType.PYTHON_RREF_FETCH_CALL, { rrefId: gid }],
      [MessageType.PYTHON_RREF_FETCH_RET, { value: [1, 2] }],
      [MessageType.RREF_FORK_REQUEST, { rrefId: gid, forkId: gid }],
      [MessageType.RREF_USER_DELETE, { rrefId: gid, forkId: gid }],
      [MessageType.RREF_CHILD_ACCEPT, { forkId: gid }],
      [MessageType.RREF_ACK, {}],
      [MessageType.EXCEPTION, { name: 'ValueError', message: 'On w1: no', stack: '', code: null }],
      [MessageType.HEARTBEAT_REQ, null],
      [MessageType.LEAVE_REQ, null],
      [MessageType.JOIN_REQ, { name: 'w3', rank: 3, address: 'tcp://h:1', publicKey: null, maxMessageBytes: 1024 }],
    ];
    for (const [type, payload] of good) {
      expect(checkPayload(type as RawMessage['type'], payload)).toBeNull();
      expect(wire({ type: type as RawMessage['type'], id: 9, payload }).payload).toEqual(payload);
    }
  });

  it('a malformed payload is a PROTOCOL error naming the message type and the field, with the id to answer', () => {
    const bad: [RawMessage['type'], unknown, string][] = [
      [MessageType.PYTHON_CALL, { fn: 'f' }, "malformed PYTHON_CALL payload: field 'args'"],
      [MessageType.PYTHON_CALL, { fn: 3, args: [] }, "malformed PYTHON_CALL payload: field 'fn'"],
      [MessageType.PYTHON_CALL, [1, 2], "malformed PYTHON_CALL payload: field 'fn'"],
      [MessageType.PYTHON_CALL, null, 'malformed PYTHON_CALL payload: not an object'],
      [
        MessageType.PYTHON_REMOTE_CALL,
        { fn: 'f', args: [], rrefId: { createdOn: 'x' }, forkId: null },
        "malformed PYTHON_REMOTE_CALL payload: field 'rrefId'",
      ],
      [MessageType.RREF_USER_DELETE, { rrefId: gid }, "malformed RREF_USER_DELETE payload: field 'forkId'"],
      [MessageType.PYTHON_RREF_FETCH_CALL, {}, "malformed PYTHON_RREF_FETCH_CALL payload: field 'rrefId'"],
      [MessageType.EXCEPTION, { message: 'x' }, "malformed EXCEPTION payload: field 'name'"],
      [MessageType.HEARTBEAT_REQ, { extra: 1 }, 'malformed HEARTBEAT_REQ payload: expected no payload'],
      [
        MessageType.JOIN_REQ,
        { name: 'w', rank: 1.5, address: 'a', maxMessageBytes: 1 },
        "malformed JOIN_REQ payload: field 'rank'",
      ],
    ];
    for (const [type, payload, message] of bad) {
      const e = errorOf(() => wire({ type, id: 41, payload }));
      expect({ code: e.code, message: e.message, messageId: e.messageId }).toEqual({
        code: 'PROTOCOL',
        message,
        messageId: 41,
      });
    }
  });

  it("an answer's value is read by its type: a call's or fetch's answer has one, any other answer is a PROTOCOL error", () => {
    expect(returnedValue(wire({ type: MessageType.PYTHON_RET, id: 1, payload: { value: 5 } }))).toBe(5);
    expect(returnedValue(wire({ type: MessageType.SCRIPT_RREF_FETCH_RET, id: 1, payload: { value: 'v' } }))).toBe('v');
    const e = errorOf(() => returnedValue(wire({ type: MessageType.RREF_ACK, id: 1, payload: {} })));
    expect([e.code, e.message]).toEqual(['PROTOCOL', 'expected an answer with a value, got RREF_ACK']);
  });
});
