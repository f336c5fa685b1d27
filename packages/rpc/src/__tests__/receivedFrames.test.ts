import { describe, expect, it } from 'vitest';
import { runWorkers } from './harness.js';

describe('received messages (Note [Receive loops hold no message], Note [Pooled codecs forget their message])', () => {
  it('are garbage once served or answered: no receive loop holds the last message until the next one', async () => {
    const [caller, callee] = await runWorkers({ scenario: 'receivedFrames', worldSize: 2, timeoutMs: 20000 });
    expect(caller).toEqual({ answerCollected: true });
    expect(callee).toEqual({ requestCollected: true });
  }, 30000);
});
