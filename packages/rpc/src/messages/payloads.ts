import type { GloballyUniqueId } from '../rref/globallyUniqueId.js';
import type { WorkerRecord } from '../rendezvous/store.js';
import { MessageType, isMessageType, messageTypeName } from './messageType.js';

/**
 * Note [One payload type per message type]
 * PyTorch has one class per message (PythonCall, PythonRemoteCall, ScriptRRefFetchRet,
 * RRefUserDelete, ...), each with its own fromMessage. Here every MessageType names one
 * payload interface in `MessagePayloads`, and `Message<T>` is the union discriminated by
 * `type`: a handler registered for T receives `MessagePayloads[T]` without a cast, and code
 * that reads an answer narrows on its type. A payload is checked where it is decoded
 * (`checkPayload`, from decodeMessage): a missing or mistyped field is RpcError PROTOCOL
 * naming the message type and the field, answered as EXCEPTION to the right call, never a
 * TypeError deep inside a handler. @wiregrad/dist-autograd adds its messages' payloads
 * (FORWARD_AUTOGRAD_REQ, ...) to `MessagePayloads` by declaration merging and registers their
 * checks with `registerPayloadCheck`, since rpc knows nothing of autograd (Note [RPC autograd hooks]).
 */

/** PyTorch's PythonCall / ScriptCall: a registered function's name and its arguments. */
export interface PythonCall {
  fn: string;
  args: unknown[];
}

/** PyTorch's PythonRemoteCall / ScriptRemoteCall: a call whose value the callee owns, under `rrefId`. */
export interface PythonRemoteCall extends PythonCall {
  rrefId: GloballyUniqueId;
  /** the caller's fork of the new RRef; null when the caller is the owner itself */
  forkId: GloballyUniqueId | null;
}

/** PyTorch's PythonResp / ScriptResp and the RRef fetch answers: a value. */
export interface PythonResp {
  value: unknown;
}

/** PyTorch's PythonRRefFetchCall / ScriptRRefFetchCall. */
export interface RRefFetchCall {
  rrefId: GloballyUniqueId;
}

/** PyTorch's RRefForkRequest and RRefUserDelete: one fork of one RRef. */
export interface RRefFork {
  rrefId: GloballyUniqueId;
  forkId: GloballyUniqueId;
}

/** PyTorch's RRefChildAccept. */
export interface RRefChildAccept {
  forkId: GloballyUniqueId;
}

/** NOTIFY (Note [One-way messages]): a registered function's name and arguments; `confirm` asks for a receipt at once. */
export interface Notify extends PythonCall {
  confirm: boolean;
}

/** NOTIFY_RECEIVED: the ids of the caller's NOTIFY messages that arrived (Note [One-way messages]). */
export interface NotifyReceived {
  ids: number[];
}

/** RemoteRet, RRefAck: an answer that carries nothing. */
export type EmptyPayload = Record<string, never>;

/** EXCEPTION (Note [Remote errors]): the error's name, message (prefixed with the worker), stack and code. */
export interface ExceptionPayload {
  name: string;
  message: string;
  stack: string;
  code: unknown;
}

/** The payload of each message type rpc itself sends (dist-autograd merges its own in). */
export interface MessagePayloads {
  [MessageType.SCRIPT_CALL]: PythonCall;
  [MessageType.PYTHON_CALL]: PythonCall;
  [MessageType.SCRIPT_RET]: PythonResp;
  [MessageType.PYTHON_RET]: PythonResp;
  [MessageType.SCRIPT_REMOTE_CALL]: PythonRemoteCall;
  [MessageType.PYTHON_REMOTE_CALL]: PythonRemoteCall;
  [MessageType.REMOTE_RET]: EmptyPayload;
  [MessageType.SCRIPT_RREF_FETCH_CALL]: RRefFetchCall;
  [MessageType.PYTHON_RREF_FETCH_CALL]: RRefFetchCall;
  [MessageType.SCRIPT_RREF_FETCH_RET]: PythonResp;
  [MessageType.PYTHON_RREF_FETCH_RET]: PythonResp;
  [MessageType.RREF_USER_DELETE]: RRefFork;
  [MessageType.RREF_FORK_REQUEST]: RRefFork;
  [MessageType.RREF_CHILD_ACCEPT]: RRefChildAccept;
  [MessageType.RREF_ACK]: EmptyPayload;
  [MessageType.EXCEPTION]: ExceptionPayload;
  [MessageType.HEARTBEAT_REQ]: null;
  [MessageType.HEARTBEAT_RESP]: null;
  /** a joiner's rendezvous record (Note [Membership]) */
  [MessageType.JOIN_REQ]: WorkerRecord;
  [MessageType.JOIN_RESP]: null;
  [MessageType.LEAVE_REQ]: null;
  [MessageType.LEAVE_RESP]: null;
  [MessageType.ACK]: null;
  [MessageType.NOTIFY]: Notify;
  [MessageType.NOTIFY_RECEIVED]: NotifyReceived;
}

/** The payload of a message of type T (`unknown` for a type nobody declared). */
export type PayloadOf<T extends MessageType> = T extends keyof MessagePayloads ? MessagePayloads[T] : unknown;

/** Returns what is wrong with a decoded payload (a field name, a short phrase), or null when it is well formed. */
export type PayloadCheck = (payload: unknown) => string | null;

type FieldCheck = (v: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
export const isString: FieldCheck = (v) => typeof v === 'string';
export const isArray: FieldCheck = (v) => Array.isArray(v);
export const isBoolean: FieldCheck = (v) => typeof v === 'boolean';
export const isNumber: FieldCheck = (v) => typeof v === 'number';
export const isBigInt: FieldCheck = (v) => typeof v === 'bigint';
export const isAny: FieldCheck = () => true;
export const isMessageTypeOf: FieldCheck = (v) => isMessageType(v);
export const isGid: FieldCheck = (v) =>
  isObject(v) && Number.isInteger(v['createdOn']) && Number.isInteger(v['localId']);
export const orNull =
  (f: FieldCheck): FieldCheck =>
  (v) =>
    v === null || f(v);
export const optional =
  (f: FieldCheck): FieldCheck =>
  (v) =>
    v === undefined || f(v);
export const arrayOf =
  (f: FieldCheck): FieldCheck =>
  (v) =>
    Array.isArray(v) && v.every(f);

/** A check for an object payload whose fields pass `fields` (extra fields are allowed). */
export function shape(fields: Record<string, FieldCheck>): PayloadCheck {
  const entries = Object.entries(fields);
  return (p) => {
    if (!isObject(p)) return 'not an object';
    for (const [name, ok] of entries) if (!ok(p[name])) return `field '${name}'`;
    return null;
  };
}

const isNull: PayloadCheck = (p) => (p === null || p === undefined ? null : 'expected no payload');
const call = shape({ fn: isString, args: isArray });
const remoteCall = shape({ fn: isString, args: isArray, rrefId: isGid, forkId: orNull(isGid) });
const resp = shape({ value: isAny });
const fetch = shape({ rrefId: isGid });
const fork = shape({ rrefId: isGid, forkId: isGid });
const empty = shape({});

const checks = new Map<MessageType, PayloadCheck>([
  [MessageType.SCRIPT_CALL, call],
  [MessageType.PYTHON_CALL, call],
  [MessageType.SCRIPT_RET, resp],
  [MessageType.PYTHON_RET, resp],
  [MessageType.SCRIPT_REMOTE_CALL, remoteCall],
  [MessageType.PYTHON_REMOTE_CALL, remoteCall],
  [MessageType.REMOTE_RET, empty],
  [MessageType.SCRIPT_RREF_FETCH_CALL, fetch],
  [MessageType.PYTHON_RREF_FETCH_CALL, fetch],
  [MessageType.SCRIPT_RREF_FETCH_RET, resp],
  [MessageType.PYTHON_RREF_FETCH_RET, resp],
  [MessageType.RREF_USER_DELETE, fork],
  [MessageType.RREF_FORK_REQUEST, fork],
  [MessageType.RREF_CHILD_ACCEPT, shape({ forkId: isGid })],
  [MessageType.RREF_ACK, empty],
  [MessageType.EXCEPTION, shape({ name: isString, message: isString, stack: isString, code: isAny })],
  [MessageType.HEARTBEAT_REQ, isNull],
  [MessageType.HEARTBEAT_RESP, isNull],
  [
    MessageType.JOIN_REQ,
    shape({
      name: isString,
      rank: Number.isInteger,
      address: isString,
      maxMessageBytes: isNumber,
      ipc: optional((v) => shape({ host: isString, address: isString })(v) === null),
    }),
  ],
  [MessageType.JOIN_RESP, isNull],
  [MessageType.LEAVE_REQ, isNull],
  [MessageType.LEAVE_RESP, isNull],
  [MessageType.ACK, isNull],
  [MessageType.NOTIFY, shape({ fn: isString, args: isArray, confirm: isBoolean })],
  [MessageType.NOTIFY_RECEIVED, shape({ ids: arrayOf(Number.isSafeInteger) })],
]);

/** Adds the check of a message type rpc does not define itself (dist-autograd's). */
export function registerPayloadCheck(type: MessageType, check: PayloadCheck): void {
  checks.set(type, check);
}

/** What is wrong with `payload` as the payload of `type`, as a sentence, or null when it is well formed. */
export function checkPayload(type: MessageType, payload: unknown): string | null {
  const problem = checks.get(type)?.(payload) ?? null;
  return problem === null ? null : `malformed ${messageTypeName(type)} payload: ${problem}`;
}
