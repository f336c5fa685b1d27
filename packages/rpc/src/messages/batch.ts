import { RpcError } from '../errors.js';

const MARKER = 0xb7;
const MARKER_BYTES = 4;
const LENGTH_BYTES = 4;

/**
 * Note [Batched messages]
 * ZeroMQ costs about as much per frame as the rest of a small call (zeromq.js copies every
 * frame through N-API on both ends), so messages of a single frame (no tensors) queued for
 * one destination in the same turn, or while its socket was busy, go out as ONE frame:
 *   [0xb7, 0, count lo, count hi] then, per message, its length (u32 LE) and its bytes.
 * A batch can never be mistaken for a message head: a head starts with WIRE_VERSION
 * (Note [Message framing]), a batch with 0xb7. The receiver splits it into views of the
 * received frame (the decoder copies whatever it keeps, Note [Faithful payloads]).
 * Messages with tensor frames always travel alone.
 */
export function batchFrames(messages: readonly Uint8Array[]): Uint8Array[] {
  let bytes = MARKER_BYTES;
  for (const m of messages) bytes += LENGTH_BYTES + m.byteLength;
  const out = Buffer.allocUnsafe(bytes);
  out[0] = MARKER;
  out[1] = 0;
  out.writeUInt16LE(messages.length, 2);
  let at = MARKER_BYTES;
  for (const m of messages) {
    out.writeUInt32LE(m.byteLength, at);
    out.set(m, at + LENGTH_BYTES);
    at += LENGTH_BYTES + m.byteLength;
  }
  return [out];
}

/** Whether `frame` is a batch of messages (Note [Batched messages]) rather than one message's head. */
export function isBatch(frame: Uint8Array): boolean {
  return frame.byteLength > 0 && frame[0] === MARKER;
}

/** The messages inside one received ZeroMQ message: itself, or the members of a batch. */
export function splitBatch(frames: Uint8Array[]): Uint8Array[][] {
  const first = frames[0];
  if (first === undefined || !isBatch(first)) return [frames];
  if (frames.length !== 1) throw new RpcError('PROTOCOL', `a batch is one frame, got ${frames.length}`);
  const count = first.byteLength < MARKER_BYTES ? 0 : first[2]! | (first[3]! << 8);
  const view = new DataView(first.buffer, first.byteOffset, first.byteLength);
  const out: Uint8Array[][] = [];
  let at = MARKER_BYTES;
  while (at + LENGTH_BYTES <= first.byteLength && out.length < count) {
    const end = at + LENGTH_BYTES + view.getUint32(at, true);
    if (end > first.byteLength) break;
    out.push([new Uint8Array(first.buffer, first.byteOffset + at + LENGTH_BYTES, end - at - LENGTH_BYTES)]);
    at = end;
  }
  if (count === 0 || out.length !== count || at !== first.byteLength) {
    throw new RpcError(
      'PROTOCOL',
      `batch marker announces ${count} messages but its ${first.byteLength} bytes hold ${out.length} (${first.byteLength - at} bytes left over)`,
    );
  }
  return out;
}

/** The most messages one batch carries (the marker's count is 16 bits). */
export const MAX_BATCH = 0xffff;
