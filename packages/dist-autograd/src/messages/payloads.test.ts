import { describe, expect, it } from 'vitest';
import { MessageType, checkPayload } from '@wiregrad/rpc/internal';
import '../index.js';

const metadata = { contextId: 1n, messageId: 2n };

describe("distributed autograd's payload checks (Note [One payload type per message type] in @wiregrad/rpc)", () => {
  it('FORWARD_AUTOGRAD_REQ checks its own fields and the message it wraps, as that message type', () => {
    const call = { fn: 'f', args: [] };
    const wrapped = { fromWorkerId: 0, wrappedType: MessageType.PYTHON_CALL, metadata, payload: call };
    expect(checkPayload(MessageType.FORWARD_AUTOGRAD_REQ, wrapped)).toBeNull();
    expect(checkPayload(MessageType.FORWARD_AUTOGRAD_REQ, { ...wrapped, releases: [3n], reaches: null })).toBeNull();
    expect(checkPayload(MessageType.FORWARD_AUTOGRAD_REQ, { ...wrapped, payload: { fn: 'f' } })).toBe(
      "malformed FORWARD_AUTOGRAD_REQ payload: malformed PYTHON_CALL payload: field 'args'",
    );
    expect(checkPayload(MessageType.FORWARD_AUTOGRAD_REQ, { ...wrapped, wrappedType: 0x999 })).toBe(
      "malformed FORWARD_AUTOGRAD_REQ payload: field 'wrappedType'",
    );
    expect(checkPayload(MessageType.FORWARD_AUTOGRAD_REQ, { ...wrapped, metadata: { contextId: 1 } })).toBe(
      "malformed FORWARD_AUTOGRAD_REQ payload: field 'metadata'",
    );
    expect(checkPayload(MessageType.FORWARD_AUTOGRAD_REQ, { ...wrapped, releases: [1] })).toBe(
      "malformed FORWARD_AUTOGRAD_REQ payload: field 'releases'",
    );
  });

  it('gradients, their answer, cleanup and RRef backward are checked field by field', () => {
    const grads = { kind: 'grads', passId: 'p', metadata, grads: [null], retainGraph: false };
    expect(checkPayload(MessageType.BACKWARD_AUTOGRAD_REQ, grads)).toBeNull();
    expect(checkPayload(MessageType.BACKWARD_AUTOGRAD_REQ, { ...grads, kind: 'other' })).toBe(
      "malformed BACKWARD_AUTOGRAD_REQ payload: field 'kind'",
    );
    expect(checkPayload(MessageType.BACKWARD_AUTOGRAD_RESP, { inline: [grads] })).toBeNull();
    expect(checkPayload(MessageType.BACKWARD_AUTOGRAD_RESP, { inline: [{ kind: 'grads' }] })).toBe(
      "malformed BACKWARD_AUTOGRAD_RESP payload: field 'inline'",
    );
    expect(checkPayload(MessageType.CLEANUP_AUTOGRAD_CONTEXT_REQ, { contextIds: [1n, 2n] })).toBeNull();
    expect(checkPayload(MessageType.CLEANUP_AUTOGRAD_CONTEXT_REQ, { contextId: 1n })).toBe(
      "malformed CLEANUP_AUTOGRAD_CONTEXT_REQ payload: field 'contextIds'",
    );
    expect(checkPayload(MessageType.RREF_BACKWARD_REQ, { rref: {}, contextId: -1, retainGraph: false })).toBe(
      "malformed RREF_BACKWARD_REQ payload: field 'rref'",
    );
  });
});
