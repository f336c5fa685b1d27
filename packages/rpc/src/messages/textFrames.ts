/**
 * Note [Small frames travel as text]
 * zeromq.js copies a frame of up to 128 bytes into ZeroMQ and hands a bigger one over
 * zero-copy. ZeroMQ releases a zero-copy frame on its I/O thread once the frame is on the
 * wire, and zeromq.js must release the JavaScript buffer on the sending thread, so it wakes
 * that thread's event loop for it: one more wake-up of the sender per message, on top of the
 * one the answer brings. On 2 cores that doubled the cost of a small message: a raw zeromq
 * echo of 600 bytes between two processes took 50-61 us of the caller's cpu per round trip
 * as a buffer, 24-31 us as a string or as a 100-byte buffer (load 12). A string is copied
 * into ZeroMQ (as UTF-8) and freed by ZeroMQ itself, with no wake-up.
 *
 * So a message's head (Note [Message framing]) of 129 to MAX_TEXT_BYTES bytes leaves as the
 * string TEXT_MARKER + its bytes as Latin-1 characters; ZeroMQ carries that string's UTF-8
 * bytes (a byte of 0x80 or more takes two), and the receiver turns them back into the frame.
 * A batch of messages (Note [Batched messages]) stays bytes: batches form while the sender is
 * busy, when one wake-up serves many messages and transcoding only adds work (64 calls in
 * flight ran at 0.95x raw zeromq's rate with batches as text). A first frame cannot be taken
 * for text by mistake: a head starts with WIRE_VERSION and a batch with 0xb7, never with
 * TEXT_MARKER. Tensor frames (Note [Tensor frames]) are big by construction (Note [Small
 * tensors travel inline]) and stay zero-copy, where one wake-up per frame is cheap beside
 * not copying it; later frames are never text, so their first byte means nothing here.
 */
export const TEXT_MARKER = 0x74;

/** Above this a frame leaves as bytes: UTF-8 transcoding would cost more than the wake-up it saves. */
export const MAX_TEXT_BYTES = 16 * 1024;
/** zeromq.js copies frames up to this size itself. */
const COPIED_BYTES = 128;

const MARKER_CHAR = String.fromCharCode(TEXT_MARKER);

/** A message head as zeromq.js should get it: text when Note [Small frames travel as text] says so. */
export function toWire(frame: Uint8Array): Uint8Array | string {
  if (frame.byteLength <= COPIED_BYTES || frame.byteLength > MAX_TEXT_BYTES) return frame;
  return MARKER_CHAR + Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength).toString('latin1');
}

/**
 * A received first frame as it was sent: the bytes behind text (Note [Small frames travel as
 * text]), else itself. The UTF-8 of a Latin-1 character is itself below 0x80, else the two bytes
 * 110000xx 10xxxxxx; bytes that are not such UTF-8 (a bad peer) still give bytes, which the
 * message decoder then refuses.
 */
export function fromWire(frame: Uint8Array): Uint8Array {
  if (frame.byteLength === 0 || frame[0] !== TEXT_MARKER) return frame;
  const length = frame.byteLength;
  const out = Buffer.allocUnsafe(length - 1);
  let n = 0;
  for (let i = 1; i < length; i++) {
    const b = frame[i]!;
    if (b < 0x80) out[n++] = b;
    else {
      i++;
      out[n++] = ((b & 0x03) << 6) | (i < length ? frame[i]! & 0x3f : 0);
    }
  }
  return out.subarray(0, n);
}
