import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RpcError } from '../errors.js';
import { batchFrames, splitBatch } from './batch.js';

describe('batched messages (Note [Batched messages])', () => {
  const m = (n: number) => new Uint8Array(12).fill(n);

  it('a batch is one frame and splits back into its messages, one frame each, in order', () => {
    const batch = batchFrames([m(1), new Uint8Array(0), m(3)]);
    expect(batch).toHaveLength(1);
    expect(splitBatch(batch)).toEqual([[m(1)], [new Uint8Array(0)], [m(3)]]);
  });

  it('a plain message (head + tensor frames) is one message', () => {
    const frames = [m(1), new Uint8Array(8)];
    expect(splitBatch(frames)).toEqual([frames]);
  });

  it('a batch whose count or lengths disagree with its bytes is a PROTOCOL error', () => {
    const [whole] = batchFrames([m(1), m(2)]);
    expect(() => splitBatch([whole!.subarray(0, whole!.byteLength - 1)])).toThrow(RpcError);
    expect(() => splitBatch([whole!.subarray(0, whole!.byteLength - 1)])).toThrow(
      'batch marker announces 2 messages but its 35 bytes hold 1 (15 bytes left over)',
    );
    expect(() => splitBatch([Buffer.concat([whole!, new Uint8Array(1)])])).toThrow(/1 bytes left over/);
    expect(() => splitBatch([new Uint8Array([0xb7, 0, 0, 0])])).toThrow(/announces 0 messages/);
    expect(() => splitBatch([new Uint8Array([0xb7])])).toThrow(/announces 0 messages/);
    expect(() => splitBatch([whole!, m(1)])).toThrow('a batch is one frame, got 2');
  });

  it('fuzz: any frames split or throw RpcError, never anything else', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 16 }), { maxLength: 6 }), fc.boolean(), (frames, marked) => {
        const input =
          marked && frames.length > 0
            ? [Buffer.concat([new Uint8Array([0xb7, 0, frames.length, 0]), ...frames])]
            : frames;
        try {
          const parts = splitBatch(input);
          const bytes = (fs: Uint8Array[]) => fs.reduce((n, f) => n + f.byteLength, 0);
          expect(bytes(parts.flat())).toBeLessThanOrEqual(bytes(input));
        } catch (e) {
          expect(e).toBeInstanceOf(RpcError);
        }
      }),
    );
  });
});
