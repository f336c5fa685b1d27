import { Decoder, Encoder } from '@msgpack/msgpack';
import type { Tensor } from '@wiregrad/tensor';
import { RpcError } from '../errors.js';
import { type CodecContext, decodePayload, encodePayload } from './codec.js';
import { isMessageType, type MessageType } from './messageType.js';

/** PyTorch's Message: a type, an id matching request and response, a payload and its tensors. */
export interface Message {
  type: MessageType;
  id: number;
  payload: unknown;
}

const VERSION = 1;
const headerEncoder = new Encoder();
const headerDecoder = new Decoder();

/**
 * Note [Message framing]
 * A message is ZeroMQ frames: [header, payload, ...tensor bytes]. The header is MessagePack
 * {v, type, id, n} (n = number of tensor frames); the payload is MessagePack with extension
 * types (Note [Tensor frames]). Decoding checks every field and throws RpcError PROTOCOL on
 * anything malformed, so a bad peer can never crash the receive loop.
 */
export function encodeMessage(msg: Message, ctx: Omit<CodecContext, 'tensors' | 'frames'>): Uint8Array[] {
  const full: CodecContext = { ...ctx, tensors: [], frames: [] };
  const payload = encodePayload(msg.payload, full);
  const header = headerEncoder.encode({ v: VERSION, type: msg.type, id: msg.id, n: full.tensors.length }).slice();
  return [header, payload, ...full.tensors.map(tensorBytes)];
}

function tensorBytes(t: Tensor): Uint8Array {
  const data = t.storage.data;
  const bytes = data.BYTES_PER_ELEMENT;
  return new Uint8Array(data.buffer, data.byteOffset + t.offset * bytes, t.numel * bytes);
}

export interface Header {
  type: MessageType;
  id: number;
  n: number;
}

export function decodeHeader(frame: Uint8Array | undefined): Header {
  if (!frame) throw new RpcError('PROTOCOL', 'message has no header frame');
  let h: unknown;
  try {
    h = headerDecoder.decode(frame);
  } catch (e) {
    throw new RpcError('PROTOCOL', `malformed message header: ${(e as Error).message}`);
  }
  const { v, type, id, n } = (h ?? {}) as Record<string, unknown>;
  if (v !== VERSION) throw new RpcError('PROTOCOL', `unsupported message version ${String(v)}`);
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new RpcError('PROTOCOL', `message id must be an integer, got ${String(id)}`);
  if (!isMessageType(type)) throw Object.assign(new RpcError('PROTOCOL', `unknown message type ${String(type)}`), { messageId: id });
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new RpcError('PROTOCOL', `bad tensor frame count ${String(n)}`);
  return { type, id, n };
}

/** Decodes a whole message (`header` when the caller already decoded frame 0). */
export function decodeMessage(frames: Uint8Array[], ctx: Omit<CodecContext, 'tensors' | 'frames'>, header: Header = decodeHeader(frames[0])): Message {
  const payloadFrame = frames[1];
  if (!payloadFrame) throw new RpcError('PROTOCOL', 'message has no payload frame');
  const tensorFrames = frames.slice(2);
  if (tensorFrames.length !== header.n) {
    throw new RpcError('PROTOCOL', `message declares ${header.n} tensor frames but carries ${tensorFrames.length}`);
  }
  let payload: unknown;
  try {
    payload = decodePayload(payloadFrame, { ...ctx, tensors: [], frames: tensorFrames });
  } catch (e) {
    if (e instanceof RpcError) throw e;
    throw new RpcError('PROTOCOL', `malformed payload: ${(e as Error).message}`);
  }
  return { type: header.type, id: header.id, payload };
}
