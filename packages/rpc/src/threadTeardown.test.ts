import { BroadcastChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { CHANNEL } from './threadTeardown.js';

describe('the thread teardown channel (Note [Terminating a thread that runs RPC])', () => {
  it('ignores messages it does not understand: an older version of the library, or anything else posted under its name', async () => {
    const errors: unknown[] = [];
    const onError = (e: unknown) => errors.push(e);
    process.on('uncaughtException', onError);
    const other = new BroadcastChannel(CHANNEL);
    try {
      // the previous protocol's announcements, and malformed ones
      for (const m of [{ up: 1 }, { down: 1 }, { exiting: 'all' }, { table: 5, owner: 'x' }, null, 7, 'exit', []])
        other.postMessage(m);
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      other.close();
      process.off('uncaughtException', onError);
    }
    expect(errors).toEqual([]);
  });
});
