import { describe, expect, it } from 'vitest';
import { AutogradError, queueCallback, tensor } from '../index.js';
import { awaitInPass, canAwait } from '../internal.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('awaiting inside a backward pass (Note [Awaiting in a pass])', () => {
  it('canAwait() is true only inside a node of a backwardAsync() pass', async () => {
    const seen: boolean[] = [];
    const x = tensor([1, 2], { requiresGrad: true });
    x.registerHook((g) => (seen.push(canAwait()), g));
    x.mul(2).sum().backward();
    await x.mul(2).sum().backwardAsync();
    expect(seen).toEqual([false, true]);
    expect(canAwait()).toBe(false);
  });

  it('backwardAsync() resolves only after the work added with awaitInPass settled, before the final callbacks', async () => {
    const order: string[] = [];
    const x = tensor([1, 2], { requiresGrad: true });
    x.registerPostAccumulateGradHook(() => {
      awaitInPass('Slow', async () => {
        await sleep(30);
        order.push('work');
      });
      queueCallback(() => order.push('final callback'));
    });
    await x.mul(3).sum().backwardAsync();
    order.push('resolved');
    expect(order).toEqual(['work', 'final callback', 'resolved']);
    expect(Array.from(x.grad!.toTypedArray())).toEqual([3, 3]);
  });

  it('a rejected work fails the pass with its own error', async () => {
    const x = tensor([1], { requiresGrad: true });
    const boom = new Error('the network went away');
    x.registerPostAccumulateGradHook(() => awaitInPass('Fails', () => sleep(5).then(() => Promise.reject(boom))));
    await expect(x.sum().backwardAsync()).rejects.toBe(boom);
  });

  it('outside backwardAsync() awaitInPass is INVALID_STATE naming the caller', () => {
    expect(() => awaitInPass('Outside', async () => {})).toThrow(AutogradError);
    const x = tensor([1], { requiresGrad: true });
    x.registerHook((g) => (awaitInPass('InSyncBackward', async () => {}), g));
    expect(() => x.sum().backward()).toThrow(
      /InSyncBackward: awaitInPass\(\) needs a pass that runs under backwardAsync\(\)/,
    );
  });
});
