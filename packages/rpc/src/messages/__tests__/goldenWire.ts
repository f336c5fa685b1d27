// One representative message of each of rpc's MessageTypes, pinned by Note [Golden wire files].
import { fileURLToPath } from 'node:url';
import { arange, tensor } from '@wiregrad/tensor';
import type { GoldenFrames } from '@wiregrad/test-helpers';
import { INLINE_MAX_BYTES } from '../tensorFrames.js';
import { type RawMessage, encodeMessage, signHead } from '../message.js';
import { MessageType } from '../messageType.js';

export const GOLDEN_DIR = fileURLToPath(new URL('golden', import.meta.url));

/** The sender's side of every golden message: worker 1, no device map. */
export const GOLDEN_CONTEXT = { deviceMap: {}, peer: 1 };

/** The key the signed golden message (JOIN_REQ) is signed with (Note [Authenticated membership]). */
export const GOLDEN_KEY = Buffer.alloc(32, 7);

/** The types dist-autograd owns (its golden messages are in @wiregrad/dist-autograd). */
export const AUTOGRAD_TYPES = [
  'FORWARD_AUTOGRAD_REQ',
  'FORWARD_AUTOGRAD_RESP',
  'BACKWARD_AUTOGRAD_REQ',
  'BACKWARD_AUTOGRAD_RESP',
  'CLEANUP_AUTOGRAD_CONTEXT_REQ',
  'CLEANUP_AUTOGRAD_CONTEXT_RESP',
  'RREF_BACKWARD_REQ',
  'RREF_BACKWARD_RESP',
] as const satisfies readonly (keyof typeof MessageType)[];

const rrefId = { createdOn: 0, localId: 3 };
const forkId = { createdOn: 1, localId: 12 };
/** A float32 tensor one element over the inline limit: it travels as a frame of its own. */
const framed = () => arange(INLINE_MAX_BYTES / 4 + 1, { dtype: 'float32' });
const error = Object.assign(new RangeError('too far'), { stack: 'RangeError: too far\n    at golden', code: 'E_FAR' });

type Name = Exclude<keyof typeof MessageType, (typeof AUTOGRAD_TYPES)[number]>;

/** Payloads that, together, use every extension: tensors inline and framed, views, bigints, -0 and undefined, Maps, typed arrays, dates, errors. */
const payloads: Record<Name, () => unknown> = {
  SCRIPT_CALL: () => ({
    fn: 'add',
    args: [
      tensor([
        [1, 2],
        [3, 4],
      ]),
      framed(),
      3,
      -0,
      undefined,
    ],
  }),
  SCRIPT_RET: () => ({
    value: tensor([
      [1, 2, 3],
      [4, 5, 6],
    ]).t(),
  }),
  PYTHON_CALL: () => ({ fn: 'torch.add', args: [1n, -(2n ** 70n), 'x', null, true, 2.5] }),
  PYTHON_RET: () => ({ value: { loss: 0.25, steps: [1, 2, 3], done: false } }),
  SCRIPT_REMOTE_CALL: () => ({ fn: 'ones', args: [[2, 3]], rrefId, forkId: null }),
  PYTHON_REMOTE_CALL: () => ({ fn: 'Linear', args: [4, 2], rrefId, forkId }),
  REMOTE_RET: () => ({}),
  SCRIPT_RREF_FETCH_CALL: () => ({ rrefId }),
  PYTHON_RREF_FETCH_CALL: () => ({ rrefId }),
  SCRIPT_RREF_FETCH_RET: () => ({
    value: new Map<unknown, unknown>([
      ['w', new Float64Array([0.5, -1])],
      [2, new Int32Array([7])],
    ]),
  }),
  PYTHON_RREF_FETCH_RET: () => ({
    value: [new Date(Date.UTC(2026, 10, 28, 12, 0, 0, 250)), new Uint8Array([1, 2, 3]), tensor([true, false])],
  }),
  RREF_USER_DELETE: () => ({ rrefId, forkId }),
  RREF_FORK_REQUEST: () => ({ rrefId, forkId }),
  RREF_CHILD_ACCEPT: () => ({ forkId }),
  RREF_ACK: () => ({}),
  RUN_WITH_PROFILING_REQ: () => null,
  RUN_WITH_PROFILING_RESP: () => null,
  EXCEPTION: () => ({
    name: 'RangeError',
    message: 'too far',
    stack: 'RangeError: too far\n    at golden',
    code: 'E_FAR',
  }),
  UNKNOWN: () => ({ error, nested: { list: [undefined, null, -0, 0, 1e300, -7, 2 ** 40] } }),
  HEARTBEAT_REQ: () => null,
  HEARTBEAT_RESP: () => null,
  JOIN_REQ: () => ({
    name: 'trainer1',
    rank: 1,
    address: 'tcp://127.0.0.1:29500',
    publicKey: null,
    maxMessageBytes: 2 ** 31,
  }),
  JOIN_RESP: () => null,
  LEAVE_REQ: () => null,
  LEAVE_RESP: () => null,
  ACK: () => null,
  NOTIFY: () => ({ fn: '_wiregrad.c10d.deliver', args: ['0|3|1.0|1', { kind: 'ring' }, framed()], confirm: true }),
  NOTIFY_RECEIVED: () => ({ ids: [3, 4, 2 ** 33] }),
};

/** The golden messages, made afresh (tensors are new each time); ids use both words of Note [Message framing]. */
export function goldenMessages(): { name: Name; message: RawMessage; signed: boolean }[] {
  return (Object.keys(payloads) as Name[]).map((name, i) => ({
    name,
    message: { type: MessageType[name], id: i === 0 ? 2 ** 32 + 5 : i + 1, payload: payloads[name]() },
    signed: name === 'JOIN_REQ',
  }));
}

/** A golden message's frames: encoded as the agent sends it (signed where the agent signs). */
export function goldenFrames(g: { name: string; message: RawMessage; signed: boolean }): GoldenFrames {
  const frames = encodeMessage(g.message, GOLDEN_CONTEXT);
  if (g.signed) frames[0] = signHead(frames[0]!, GOLDEN_KEY);
  return { name: g.name, frames };
}
