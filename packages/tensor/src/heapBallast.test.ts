import { describe, expect, it } from 'vitest';
import { heapStats } from './allocator.js';
import { randn } from './index.js';

describe('blocks of wasm memory left to the GC (Note [Telling V8 about heap blocks])', () => {
  it('come back for reuse in a loop that yields, long before the heap reaches its cap', async () => {
    const x = randn([1 << 18]); // 1 MiB of float32: a heap block
    const y = randn([1 << 18]);
    const carvedBefore = heapStats().carvedBytes;
    // 300 MiB of results dropped without dispose(), the loop yielding between them as an
    // asynchronous training loop does: the ballasts make V8 collect the dead views, and their
    // blocks are reused
    for (let i = 0; i < 300; i++) {
      x.add(y);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const carved = heapStats().carvedBytes - carvedBefore;
    expect(carved).toBeLessThan(200 * 2 ** 20);
  }, 30_000);
});
