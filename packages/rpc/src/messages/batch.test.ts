import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RpcError } from '../errors.js';
import { batchFrames, splitBatch } from './batch.js';

describe('batched messages (Note [Batched messages])', () => {
  const m = (n: number) => new Uint8Array(12).fill(n);

  it('a batch splits back into its messages, one frame each, in order', () => {
    expect(splitBatch(batchFrames([m(1), m(2), m(3)]))).toEqual([[m(1)], [m(2)], [m(3)]]);
  });

  it('a plain message (head + tensor frames) is one message', () => {
    const frames = [m(1), new Uint8Array(8)];
    expect(splitBatch(frames)).toEqual([frames]);
  });

  it('a marker whose count disagrees with the frames is a PROTOCOL error', () => {
    const bad = batchFrames([m(1), m(2)]).slice(0, 2);
    expect(() => splitBatch(bad)).toThrow(RpcError);
    expect(() => splitBatch(bad)).toThrow('batch marker announces 2 messages but 1 frames follow');
    expect(() => splitBatch([new Uint8Array([0xb7, 0, 0, 0])])).toThrow(/announces 0 messages/);
  });

  it('fuzz: any frames split or throw RpcError, never anything else', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 16 }), { maxLength: 6 }), fc.boolean(), (frames, marked) => {
        const input = marked && frames.length > 0 ? [new Uint8Array([0xb7, 0, frames.length - 1, 0]), ...frames.slice(1)] : frames;
        try {
          const parts = splitBatch(input);
          expect(parts.flat().length).toBeLessThanOrEqual(input.length);
        } catch (e) {
          expect(e).toBeInstanceOf(RpcError);
        }
      }),
    );
  });
});
