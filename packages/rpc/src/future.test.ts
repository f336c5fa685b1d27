import { describe, expect, it } from 'vitest';
import { RpcError } from './errors.js';
import { Future, waitAll } from './future.js';

const failed = <T>(e: unknown): Future<T> => {
  const f = new Future<T>();
  f.setError(e);
  return f;
};

describe('Future (torch.futures.Future)', () => {
  it('wait() resolves to the value; done() and value() follow completion (test_future_done)', async () => {
    const f = new Future<number>();
    expect(f.done()).toBe(false);
    expect(() => f.value()).toThrow('Future has not completed yet');
    f.setResult(7);
    expect(f.done()).toBe(true);
    expect(f.value()).toBe(7);
    expect(await f.wait()).toBe(7);
    expect(await f).toBe(7);
  });

  it('an error completes it too: done() is true, wait() and value() raise it (test_future_done_exception)', async () => {
    const boom = new TypeError('boom');
    const f = failed<number>(boom);
    expect(f.done()).toBe(true);
    expect(() => f.value()).toThrow(boom);
    await expect(f.wait()).rejects.toBe(boom);
  });

  it('can be marked completed only once (test_mark_future_twice)', () => {
    const f = Future.resolved(1);
    expect(() => f.setResult(2)).toThrow(new RpcError('FUTURE', 'Future can only be marked completed once.'));
    expect(() => f.setError(new Error('x'))).toThrow('Future can only be marked completed once');
    expect(f.value()).toBe(1);
  });

  it('then() returns a new Future holding the callback result; 20 of them chain (test_callback_chain)', async () => {
    const head = new Future<number>();
    let f: Future<number> = head;
    for (let i = 0; i < 20; i++) f = f.then((v) => v + 1);
    expect(f).toBeInstanceOf(Future);
    expect(f.done()).toBe(false);
    head.setResult(0);
    expect(await f.wait()).toBe(20);
    expect(f.done()).toBe(true);
  });

  it('several callbacks on one future all run (test_callback_multi)', async () => {
    const f = new Future<number>();
    const outs = Array.from({ length: 10 }, (_, i) => f.then((v) => v * i));
    f.setResult(2);
    expect(await waitAll(outs)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
  });

  it('a callback that throws fails the chained future, not the source (test_callback_with_error)', async () => {
    const f = Future.resolved(1);
    const chained = f.then(() => {
      throw new RangeError('callback failed');
    });
    await expect(chained.wait()).rejects.toThrow('callback failed');
    expect(chained.done()).toBe(true);
    expect(f.value()).toBe(1);
  });

  it('an error skips then() callbacks until one handles it', async () => {
    const seen: string[] = [];
    const f = failed<number>(new Error('remote'))
      .then((v) => {
        seen.push('skipped');
        return v;
      })
      .catch((e) => `handled ${(e as Error).message}`);
    expect(await f).toBe('handled remote');
    expect(seen).toEqual([]);
  });

  it('a callback may return a promise or a future; the chain waits for it', async () => {
    const inner = new Future<string>();
    const f = Future.resolved(1).then(() => inner);
    setTimeout(() => inner.setResult('later'), 5);
    expect(await f.wait()).toBe('later');
  });

  it('an unobserved failed future never raises an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', listener);
    failed(new Error('nobody waits'));
    Future.from(Promise.reject(new Error('nobody waits either')));
    await new Promise((r) => setTimeout(r, 20));
    process.off('unhandledRejection', listener);
    expect(unhandled).toEqual([]);
  });
});

describe('waitAll (torch.futures.wait_all)', () => {
  it('resolves with every value in order', async () => {
    expect(await waitAll([Future.resolved(1), Promise.resolve(2), Future.resolved(3)])).toEqual([1, 2, 3]);
  });

  it('rejects with the first error (test_wait_all_with_exception / partial_exception)', async () => {
    const slow = new Future<number>();
    const result = waitAll([Future.resolved(1), failed(new Error('first')), slow]);
    await expect(result).rejects.toThrow('first');
    slow.setResult(3);
  });

  it('does not wait for pending futures once one fails (test_wait_all_exit_early)', async () => {
    const never = new Future<number>();
    const later = new Future<number>();
    setTimeout(() => later.setError(new Error('early exit')), 5);
    await expect(waitAll([never, later])).rejects.toThrow('early exit');
    expect(never.done()).toBe(false);
  });
});
