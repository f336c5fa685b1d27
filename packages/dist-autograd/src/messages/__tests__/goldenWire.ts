// One representative message of each of dist-autograd's MessageTypes, pinned by Note [Golden wire files].
import { fileURLToPath } from 'node:url';
import { ExtData, encode } from '@msgpack/msgpack';
import { EXT_USER_BASE } from '@wiregrad/rpc';
import { MessageType, type RawMessage, encodeMessage } from '@wiregrad/rpc/internal';
import { tensor } from '@wiregrad/tensor';
import type { GoldenFrames } from '@wiregrad/test-helpers';
import '../payloads.js';

export const GOLDEN_DIR = fileURLToPath(new URL('golden', import.meta.url));

/** The sender's side of every golden message: worker 1, no device map. */
export const GOLDEN_CONTEXT = { deviceMap: {}, peer: 1 };

type Name =
  | 'FORWARD_AUTOGRAD_REQ'
  | 'FORWARD_AUTOGRAD_RESP'
  | 'BACKWARD_AUTOGRAD_REQ'
  | 'BACKWARD_AUTOGRAD_RESP'
  | 'CLEANUP_AUTOGRAD_CONTEXT_REQ'
  | 'CLEANUP_AUTOGRAD_CONTEXT_RESP'
  | 'RREF_BACKWARD_REQ'
  | 'RREF_BACKWARD_RESP';

const metadata = { contextId: (1n << 48n) + 3n, messageId: (1n << 48n) + 9n };
const gradients = () => ({
  kind: 'grads' as const,
  passId: '1:7',
  metadata,
  grads: [tensor([0.5, -0.25], { dtype: 'float64' }), null],
  retainGraph: false,
  fires: [(1n << 48n) + 4n],
  releases: [],
});

/**
 * An RRef on the wire is its record under rpc's RRef extension (EXT_USER_BASE); making a real
 * one takes a running agent, so RREF_BACKWARD_REQ carries the record's bytes themselves and
 * the spec checks only its bytes (decoding it would fork the RRef on a running agent).
 */
const rrefRecord = new ExtData(
  EXT_USER_BASE,
  encode({ owner: 0, rrefId: { createdOn: 0, localId: 3 }, forkId: { createdOn: 1, localId: 12 }, parent: 1 }),
);

const payloads: Record<Name, () => unknown> = {
  FORWARD_AUTOGRAD_REQ: () => ({
    fromWorkerId: 1,
    wrappedType: MessageType.SCRIPT_CALL,
    metadata,
    payload: { fn: 'mul', args: [tensor([1, 2, 3], { requiresGrad: true }), 2] },
    reaches: [(1n << 48n) + 2n],
    releases: [(1n << 48n) + 1n],
  }),
  FORWARD_AUTOGRAD_RESP: () => ({
    fromWorkerId: 0,
    wrappedType: MessageType.SCRIPT_RET,
    metadata,
    payload: { value: tensor([2, 4, 6], { requiresGrad: true }) },
    reaches: null,
  }),
  BACKWARD_AUTOGRAD_REQ: gradients,
  BACKWARD_AUTOGRAD_RESP: () => ({ inline: [gradients()] }),
  CLEANUP_AUTOGRAD_CONTEXT_REQ: () => ({ contextIds: [(1n << 48n) + 3n, 5n] }),
  CLEANUP_AUTOGRAD_CONTEXT_RESP: () => ({}),
  RREF_BACKWARD_REQ: () => ({ rref: rrefRecord, contextId: (1n << 48n) + 3n, retainGraph: true }),
  RREF_BACKWARD_RESP: () => ({}),
};

export const AUTOGRAD_TYPE_NAMES = Object.keys(payloads) as Name[];

/** Whether the spec can decode `name`'s golden file back outside a running agent (see rrefRecord). */
export const decodable = (name: Name): boolean => name !== 'RREF_BACKWARD_REQ';

/** The golden messages, made afresh (tensors are new each time). */
export function goldenMessages(): { name: Name; message: RawMessage }[] {
  return AUTOGRAD_TYPE_NAMES.map((name, i) => ({
    name,
    message: { type: MessageType[name], id: 100 + i, payload: payloads[name]() },
  }));
}

export function goldenFrames(g: { name: string; message: RawMessage }): GoldenFrames {
  return { name: g.name, frames: encodeMessage(g.message, GOLDEN_CONTEXT) };
}
