import { describe, expect, it } from 'vitest';
import { decodeMessage } from '@wiregrad/rpc/internal';
import { framesToHex, hexToFrames, readGolden, wireValue } from '@wiregrad/test-helpers';
import { AUTOGRAD_TYPE_NAMES, GOLDEN_DIR, decodable, goldenFrames, goldenMessages } from './__tests__/goldenWire.js';

const receiver = { deviceMap: {}, peer: 0 };

describe("golden wire files of distributed autograd's messages (Note [Golden wire files])", () => {
  it('pin one message of every type in MessagePayloads that dist-autograd declares', () => {
    expect(AUTOGRAD_TYPE_NAMES).toHaveLength(8);
  });

  for (const g of goldenMessages()) {
    describe(g.name, () => {
      it('encodes to exactly the bytes of its golden file', () => {
        expect(framesToHex(goldenFrames(g).frames)).toBe(readGolden(GOLDEN_DIR, g.name));
      });

      if (decodable(g.name))
        it('decodes from its golden file to the same message', () => {
          const back = decodeMessage(hexToFrames(readGolden(GOLDEN_DIR, g.name)), receiver);
          expect([back.type, back.id]).toEqual([g.message.type, g.message.id]);
          expect(wireValue(back.payload)).toStrictEqual(wireValue(g.message.payload));
        });
    });
  }
});
