import { describe, expect, it } from 'vitest';
import { framesToHex, hexToFrames, readGolden, wireValue } from '@wiregrad/test-helpers';
import { AUTOGRAD_TYPES, GOLDEN_DIR, GOLDEN_KEY, goldenFrames, goldenMessages } from './__tests__/goldenWire.js';
import { WIRE_VERSION, decodeMessage, signedBy } from './message.js';
import { MessageType } from './messageType.js';

const receiver = { deviceMap: {}, peer: 0 };

describe('golden wire files (Note [Golden wire files])', () => {
  it('pin one message of every MessageType, with dist-autograd pinning its own', () => {
    const names = goldenMessages().map((g) => g.name);
    expect([...names, ...AUTOGRAD_TYPES].sort()).toEqual(Object.keys(MessageType).sort());
  });

  for (const g of goldenMessages()) {
    describe(g.name, () => {
      it('encodes to exactly the bytes of its golden file', () => {
        expect(framesToHex(goldenFrames(g).frames)).toBe(readGolden(GOLDEN_DIR, g.name));
      });

      it('decodes from its golden file to the same message', () => {
        const frames = hexToFrames(readGolden(GOLDEN_DIR, g.name));
        expect(frames[0]![0]).toBe(WIRE_VERSION);
        expect(signedBy(frames[0]!, GOLDEN_KEY)).toBe(g.signed);
        const back = decodeMessage(frames, receiver);
        expect([back.type, back.id]).toEqual([g.message.type, g.message.id]);
        expect(wireValue(back.payload)).toStrictEqual(wireValue(g.message.payload));
      });
    });
  }
});
