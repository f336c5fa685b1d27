import { RpcError } from '../errors.js';

const MARKER = 0xb7;
const MARKER_BYTES = 4;

/**
 * Note [Batched messages]
 * ZeroMQ costs about as much per message as the rest of a small call, so messages of a
 * single frame (no tensors) queued for one destination while its socket was busy go out
 * as one ZeroMQ message: a 4-byte marker frame [0xb7, 0, count lo, count hi] followed by
 * one frame per message. A marker can never be mistaken for a message head (those are at
 * least HEADER_BYTES long). Messages with tensor frames always travel alone.
 */
export function batchFrames(messages: readonly Uint8Array[]): Uint8Array[] {
  const marker = new Uint8Array([MARKER, 0, messages.length & 0xff, messages.length >>> 8]);
  return [marker, ...messages];
}

/** The messages inside one received ZeroMQ message: itself, or the members of a batch. */
export function splitBatch(frames: Uint8Array[]): Uint8Array[][] {
  const first = frames[0];
  if (first === undefined || first.byteLength !== MARKER_BYTES || first[0] !== MARKER) return [frames];
  const count = first[2]! | (first[3]! << 8);
  if (count !== frames.length - 1 || count === 0) {
    throw new RpcError('PROTOCOL', `batch marker announces ${count} messages but ${frames.length - 1} frames follow`);
  }
  return frames.slice(1).map((f) => [f]);
}

/** The most messages one batch carries (the marker's count is 16 bits). */
export const MAX_BATCH = 0xffff;
