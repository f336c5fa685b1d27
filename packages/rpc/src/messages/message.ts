import { MAC_BYTES, mac, macMatches } from '../auth/keys.js';
import { RpcError } from '../errors.js';
import { type CodecContext, decodePayload, encodePayloadShared } from './serialize.js';
import { frameBytes } from './tensorFrames.js';
import { MessageType, isMessageType, messageTypeName } from './messageType.js';
import { checkPayload, type PayloadOf } from './payloads.js';

/**
 * PyTorch's Message: a type, an id matching request and response, a payload and its tensors;
 * a union discriminated by `type` (See Note [One payload type per message type]).
 */
export type Message<T extends MessageType = MessageType> = T extends MessageType
  ? { type: T; id: number; payload: PayloadOf<T> }
  : never;

/** The outgoing message of type `type` (one place states that a generic pair is a member of the union). */
export function outgoing<T extends MessageType>(type: T, payload: PayloadOf<T>): OutgoingMessage<T> {
  return { type, payload } as OutgoingMessage<T>;
}

/** The value a call's or an RRef fetch's answer carries; PROTOCOL for an answer of another type. */
export function returnedValue(answer: Message): unknown {
  switch (answer.type) {
    case MessageType.SCRIPT_RET:
    case MessageType.PYTHON_RET:
    case MessageType.SCRIPT_RREF_FETCH_RET:
    case MessageType.PYTHON_RREF_FETCH_RET:
      return answer.payload.value;
    default:
      throw new RpcError('PROTOCOL', `expected an answer with a value, got ${messageTypeName(answer.type)}`);
  }
}

/** `raw` as a Message once its payload passed its type's check (Note [One payload type per message type]); else PROTOCOL. */
export function checkedMessage(raw: RawMessage): Message {
  const problem = checkPayload(raw.type, raw.payload);
  if (problem !== null) throw new RpcError('PROTOCOL', problem, { messageId: raw.id });
  return raw as Message;
}

/** A message as the codec sees it: any payload (decodeMessage checks it against its type). */
export interface RawMessage {
  type: MessageType;
  id: number;
  payload: unknown;
}

/** A message before the agent gives it an id. */
export type OutgoingMessage<T extends MessageType = MessageType> = T extends MessageType
  ? { type: T; payload: PayloadOf<T> }
  : never;

/** Wire format version (byte 0 of every message). */
export const WIRE_VERSION = 7;
/** Bytes of the fixed header in front of the payload. */
export const HEADER_BYTES = 20;
/** Flag of byte 1: the head ends with a MAC_BYTES MAC (Note [Authenticated membership]). */
const SIGNED = 1;
/** Message ids are int64 in PyTorch; here they stay safe integers (hi word < 2^21). */
const MAX_HI = 2 ** 21;

/**
 * Note [Message framing]
 * A message is ZeroMQ frames: [head, ...tensor bytes]. `head` is a fixed 12-byte header
 * followed by the MessagePack payload, which holds the bytes of small tensors itself (Note
 * [Small tensors travel inline]; bigger ones are frames, Note [Tensor frames]):
 *   byte 0 version | byte 1 flags (SIGNED, or 0) | bytes 2-3 type (u16 LE) |
 *   bytes 4-7 id low word (u32 LE) | bytes 8-11 id high word (u32 LE) |
 *   bytes 12-19 `acked`, the sender's acknowledgement watermark (same layout as the id; Note
 *   [Exactly-once calls]) ; then the payload; a SIGNED head ends with a MAC of everything
 *   before it (Note [Authenticated membership]). The number of tensor frames is the number of
 *   frames after `head`.
 * One frame for the header and the payload keeps a small call at one ZeroMQ part, and
 * such single-frame messages may share one ZeroMQ message (Note [Batched messages]). Decoding
 * checks every field and throws RpcError PROTOCOL on anything malformed, so a bad peer can
 * never crash the receive loop; the error's `messageId` is set once the id is known, so
 * the agent can answer EXCEPTION to the right call.
 */
export function encodeMessage(msg: RawMessage, ctx: Omit<CodecContext, 'tensors' | 'frames'>): Uint8Array[] {
  const full: CodecContext = { deviceMap: ctx.deviceMap, peer: ctx.peer, tensors: [], frames: [] };
  const payload = encodePayloadShared(msg.payload, full);
  // from Node's Buffer pool: a fresh small ArrayBuffer per message costs more than the encoding
  const head = Buffer.allocUnsafe(HEADER_BYTES + payload.byteLength);
  writeHeader(head, msg.type, msg.id);
  head.set(payload, HEADER_BYTES);
  if (full.tensors.length === 0) return [head];
  return [head, ...full.tensors.map(frameBytes)];
}

/** Writes the fixed header of Note [Message framing] into the first HEADER_BYTES of `head`. */
export function writeHeader(head: Uint8Array, type: number, id: number): void {
  head[0] = WIRE_VERSION;
  head[1] = 0;
  head[2] = type & 0xff;
  head[3] = type >>> 8;
  writeId(head, 4, id);
  writeId(head, 12, 0);
}

/** Writes the acknowledgement watermark of Note [Exactly-once calls] into a header written by writeHeader. */
export function writeAcked(head: Uint8Array, acked: number): void {
  writeId(head, 12, acked);
}

/** The acknowledgement watermark of a header decodeHeader accepted (Note [Exactly-once calls]). */
export function readAcked(head: Uint8Array): number {
  return readU32(head, 16) * 2 ** 32 + readU32(head, 12);
}

function writeId(b: Uint8Array, at: number, id: number): void {
  writeU32(b, at, id >>> 0);
  writeU32(b, at + 4, Math.floor(id / 2 ** 32));
}

function writeU32(b: Uint8Array, at: number, v: number): void {
  b[at] = v & 0xff;
  b[at + 1] = (v >>> 8) & 0xff;
  b[at + 2] = (v >>> 16) & 0xff;
  b[at + 3] = v >>> 24;
}

function readU32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

export interface Header {
  type: MessageType;
  id: number;
}

/** `head` with the SIGNED flag and a MAC of it under `key` at its end (a new frame; `head` is unchanged). */
export function signHead(head: Uint8Array, key: Buffer): Uint8Array {
  const signed = Buffer.allocUnsafe(head.byteLength + MAC_BYTES);
  signed.set(head);
  signed[1] = SIGNED;
  signed.set(mac(key, signed.subarray(0, head.byteLength)), head.byteLength);
  return signed;
}

/** Whether `head` (a header decodeHeader accepted) is SIGNED with a MAC under `key`. */
export function signedBy(head: Uint8Array, key: Buffer): boolean {
  const end = head.byteLength - MAC_BYTES;
  return head[1] === SIGNED && end >= HEADER_BYTES && macMatches(head.subarray(end), key, head.subarray(0, end));
}

export function decodeHeader(frame: Uint8Array | undefined): Header {
  if (!frame) throw new RpcError('PROTOCOL', 'message has no frames');
  if (frame.byteLength < HEADER_BYTES)
    throw new RpcError('PROTOCOL', `message header is ${frame.byteLength} bytes, expected at least ${HEADER_BYTES}`);
  const version = frame[0]!;
  if (version !== WIRE_VERSION)
    throw new RpcError('PROTOCOL', `unsupported wire version ${version} (this worker speaks ${WIRE_VERSION})`);
  if (frame[1]! > SIGNED || (frame[1] === SIGNED && frame.byteLength < HEADER_BYTES + MAC_BYTES))
    throw new RpcError('PROTOCOL', `malformed header flags ${frame[1]}`);
  const hi = readU32(frame, 8);
  if (hi >= MAX_HI || readU32(frame, 16) >= MAX_HI) throw new RpcError('PROTOCOL', `message id is not a safe integer`);
  const id = hi * 2 ** 32 + readU32(frame, 4);
  const type = frame[2]! | (frame[3]! << 8);
  if (!isMessageType(type)) throw new RpcError('PROTOCOL', `unknown message type ${type}`, { messageId: id });
  return { type, id };
}

/** Decodes a whole message (`header` when the caller already decoded it from frame 0). */
export function decodeMessage(
  frames: Uint8Array[],
  ctx: Omit<CodecContext, 'tensors' | 'frames'>,
  header: Header = decodeHeader(frames[0]),
): Message {
  const head = frames[0]!;
  const full: CodecContext = {
    deviceMap: ctx.deviceMap,
    peer: ctx.peer,
    tensors: [],
    frames: frames.length > 1 ? frames.slice(1) : [],
  };
  let payload: unknown;
  try {
    payload = decodePayload(head.subarray(HEADER_BYTES, head.byteLength - (head[1] === SIGNED ? MAC_BYTES : 0)), full);
    if (full.tensors.length !== full.frames.length) {
      throw new RpcError(
        'PROTOCOL',
        `message carries ${full.frames.length} tensor frames but its payload refers to ${full.tensors.length}`,
      );
    }
  } catch (e) {
    if (!(e instanceof RpcError))
      throw new RpcError('PROTOCOL', `malformed payload: ${(e as Error).message}`, { messageId: header.id });
    e.messageId = header.id;
    throw e;
  }
  return checkedMessage({ type: header.type, id: header.id, payload });
}
