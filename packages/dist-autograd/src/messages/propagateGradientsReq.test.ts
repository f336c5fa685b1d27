import { describe, expect, it } from 'vitest';
import { tensor, type Tensor } from '@wiregrad/autograd';
import { MessageType, checkPayload, decodeMessage, encodeMessage } from '@wiregrad/rpc/internal';
import '../index.js';
import type { PropagateGradientsReq } from './propagateGradientsReq.js';

const metadata = { contextId: 1n << 48n, messageId: (1n << 48n) | 7n };
const codec = { deviceMap: {}, peer: 0 };

/** The payload after a trip through rpc's codec (encode, then decode with its payload check). */
function roundTrip(payload: PropagateGradientsReq): unknown {
  const frames = encodeMessage({ type: MessageType.BACKWARD_AUTOGRAD_REQ, id: 3, payload }, codec);
  return decodeMessage(frames, codec).payload;
}

describe('PropagateGradientsReq is a tagged union: each kind carries its own fields only', () => {
  it('grads, mark and abort each travel and arrive as they left', () => {
    const grads = roundTrip({
      kind: 'grads',
      passId: '0:5',
      metadata,
      grads: [tensor([1, 2]), null],
      retainGraph: true,
      fires: [metadata.messageId],
      releases: [2n],
    }) as { grads: (Tensor | null)[] };
    expect({ ...grads, grads: grads.grads.map((g) => g?.tolist() ?? null) }).toEqual({
      kind: 'grads',
      passId: '0:5',
      metadata,
      grads: [[1, 2], null],
      retainGraph: true,
      fires: [metadata.messageId],
      releases: [2n],
    });
    const mark: PropagateGradientsReq = { kind: 'mark', passId: '0:5', metadata };
    expect(roundTrip(mark)).toEqual(mark);
    const abort: PropagateGradientsReq = {
      kind: 'abort',
      passId: '0:5',
      contextId: 1n << 48n,
      error: 'Error on Node 1: x',
    };
    expect(roundTrip(abort)).toEqual(abort);
  });

  it("a kind's check asks for that kind's fields", () => {
    const check = (p: unknown) => checkPayload(MessageType.BACKWARD_AUTOGRAD_REQ, p);
    expect(check({ kind: 'mark', passId: 'p', metadata })).toBeNull();
    expect(check({ kind: 'mark', passId: 'p' })).toBe("malformed BACKWARD_AUTOGRAD_REQ payload: field 'metadata'");
    expect(check({ kind: 'grads', passId: 'p', metadata })).toBe(
      "malformed BACKWARD_AUTOGRAD_REQ payload: field 'grads'",
    );
    expect(check({ kind: 'abort', passId: 'p', contextId: 1n })).toBe(
      "malformed BACKWARD_AUTOGRAD_REQ payload: field 'error'",
    );
    expect(check({ kind: 'abort', passId: 'p', metadata, error: 'e' })).toBe(
      "malformed BACKWARD_AUTOGRAD_REQ payload: field 'contextId'",
    );
    expect(check(null)).toBe('malformed BACKWARD_AUTOGRAD_REQ payload: not an object');
    // an answer carries gradients only
    expect(
      checkPayload(MessageType.BACKWARD_AUTOGRAD_RESP, { inline: [{ kind: 'mark', passId: 'p', metadata }] }),
    ).toBe("malformed BACKWARD_AUTOGRAD_RESP payload: field 'inline'");
  });
});
