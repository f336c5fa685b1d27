import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TEXT_BYTES, TEXT_MARKER, fromWire, toWire } from './textFrames.js';
import { WIRE_VERSION } from './message.js';

/** What ZeroMQ carries for a frame zeromq.js got: a string's UTF-8 bytes, or the bytes themselves. */
const carried = (wire: Uint8Array | string): Uint8Array =>
  typeof wire === 'string' ? new Uint8Array(Buffer.from(wire, 'utf8')) : wire;

describe('small frames travel as text (Note [Small frames travel as text])', () => {
  it('gives back every frame as it was sent, whatever its bytes and size', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 20_000 }), (bytes) => {
        const frame = bytes.byteLength > 0 ? bytes.map((b, i) => (i === 0 ? WIRE_VERSION : b)) : bytes;
        expect([...fromWire(carried(toWire(frame)))]).toEqual([...frame]);
      }),
      { numRuns: 200 },
    );
  });

  it('leaves frames zeromq.js copies anyway (<= 128 bytes) and big ones (> 16 KiB) as bytes', () => {
    for (const n of [0, 1, 128, MAX_TEXT_BYTES + 1, 1 << 20])
      expect(toWire(new Uint8Array(n))).toBeInstanceOf(Uint8Array);
    for (const n of [129, 4096, MAX_TEXT_BYTES]) {
      const wire = toWire(new Uint8Array(n).fill(0xb7));
      expect(typeof wire).toBe('string');
      expect((wire as string).charCodeAt(0)).toBe(TEXT_MARKER);
    }
  });

  it('reads heads and batches that arrive as bytes as they are', () => {
    for (const first of [WIRE_VERSION, 0xb7]) {
      const frame = new Uint8Array([first, 1, 2, 3]);
      expect(fromWire(frame)).toBe(frame);
    }
    const empty = new Uint8Array(0);
    expect(fromWire(empty)).toBe(empty);
  });

  it('never throws on text that is not UTF-8: it reads as bytes that are no message', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (tail) => {
        const got = fromWire(new Uint8Array([TEXT_MARKER, ...tail]));
        expect(got).toBeInstanceOf(Uint8Array);
      }),
    );
  });

  it('keeps the marker apart from what a first frame starts with', () => {
    expect(TEXT_MARKER).not.toBe(WIRE_VERSION);
    expect(TEXT_MARKER).not.toBe(0xb7);
    expect(TEXT_MARKER).toBeLessThan(0x80);
  });
});
