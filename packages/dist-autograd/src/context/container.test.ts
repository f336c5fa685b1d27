import { describe, expect, it } from 'vitest';
import { DistAutogradContainer } from './container.js';

describe('DistAutogradContainer (ids and contexts)', () => {
  it('makes ids workerId << 48 | counter, as bigints beyond 2^53', () => {
    const c = new DistAutogradContainer(3);
    const ids = Array.from({ length: 200 }, () => c.newContext().contextId);
    expect(ids[0]).toBe(3n << 48n);
    expect(ids[199]).toBe((3n << 48n) | 199n);
    expect(ids.every((id) => id >> 48n === 3n)).toBe(true);
    // from worker 32 on, ids no longer fit a JS number exactly
    expect(new DistAutogradContainer(40).newContext().contextId > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(c.getMaxId()).toBe((3n << 48n) | ((1n << 48n) - 1n));
    expect(c.newMessageId()).toBe(3n << 48n);
  });

  it("retrieveContext uses PyTorch's message; release removes", () => {
    const c = new DistAutogradContainer(0);
    const ctx = c.newContext();
    expect(c.retrieveContext(ctx.contextId)).toBe(ctx);
    c.take(ctx.contextId);
    expect(() => c.retrieveContext(ctx.contextId)).toThrow(`Could not find autograd context with id: ${ctx.contextId}`);
  });

  it('refuses a nested context on the same async chain', async () => {
    const c = new DistAutogradContainer(0);
    const outer = c.newContext();
    await c.current.run(outer.contextId, async () => {
      await Promise.resolve();
      expect(c.currentContext()).toBe(outer);
      expect(() => c.newContext()).toThrow('Already have an autograd context id for this thread.');
    });
    expect(c.currentContext()).toBeNull();
  });

  it('rejects worker ids that do not fit 16 bits', () => {
    expect(() => new DistAutogradContainer(1 << 16)).toThrow('must be in [0, 65536)');
  });
});
