import { describe, expect, it } from 'vitest';
import { platform } from './browser.js';

describe("autograd's browser host (Note [Autograd platform modules])", () => {
  it('nextMacrotask goes on after the pending microtasks, without setImmediate (browsers have none)', async () => {
    const order: string[] = [];
    const next = platform.nextMacrotask().then(() => order.push('macrotask'));
    void Promise.resolve().then(() => order.push('microtask'));
    await next;
    expect(order).toEqual(['microtask', 'macrotask']);
  });
});
