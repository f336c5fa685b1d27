import { describe, expect, it } from 'vitest';
import { type Tensor, dispose, emptyCache, keep, memory, randn, tensor, tidy } from './index.js';

const N = 4096;

describe('tidy(), keep() and using (Note [tidy scopes])', () => {
  it('disposes every tensor created inside except the returned ones', () => {
    const x = randn([N]);
    let inner: Tensor[] = [];
    const y = tidy(() => {
      const a = x.mul(2);
      const b = a.reshape([64, 64]).t();
      inner = [a, b];
      return b.exp();
    });
    expect(inner.every((t) => t.isDisposed)).toBe(true);
    expect(y.isDisposed).toBe(false);
    expect(x.isDisposed).toBe(false);
    expect(y.shape).toEqual([64, 64]);
    expect(y.sum().item()).toBeGreaterThan(0);
  });

  it('finds returned tensors inside arrays, Maps and plain objects', () => {
    const x = randn([8]);
    const out = tidy(() => ({ pair: [x.add(1), x.add(2)], byName: new Map([['m', x.add(3)]]), scalar: 4 }));
    expect(out.pair.map((t) => t.isDisposed)).toEqual([false, false]);
    expect(out.byName.get('m')!.isDisposed).toBe(false);
    expect(out.scalar).toBe(4);
  });

  it('hands returned tensors to the enclosing tidy, which disposes them unless it returns them too', () => {
    const x = randn([8]);
    let fromInner: Tensor | null = null;
    const kept = tidy(() => {
      fromInner = tidy(() => x.add(1));
      expect(fromInner.isDisposed).toBe(false);
      return x.add(2);
    });
    expect(fromInner!.isDisposed).toBe(true);
    expect(kept.isDisposed).toBe(false);
  });

  it('spares keep()s tensors, tensors assigned to a .grad, and leaves that require grad', () => {
    const p = tensor([1, 2, 3]);
    let made: Tensor[] = [];
    tidy(() => {
      const k = keep(p.mul(2));
      const w = randn([3], { requiresGrad: true });
      const g = p.add(1);
      p.grad = g;
      made = [k, w, g];
    });
    expect(made.map((t) => t.isDisposed)).toEqual([false, false, false]);
  });

  it('disposes what it created when fn throws, and refuses async functions', () => {
    const x = randn([8]);
    let a: Tensor | null = null;
    expect(() =>
      tidy(() => {
        a = x.add(1);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(a!.isDisposed).toBe(true);
    expect(() => tidy(async () => x.add(1))).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('a training-style loop inside tidy reuses its memory: no fresh allocation after the first iteration', () => {
    emptyCache();
    const w = randn([64, 64]);
    const x = randn([64, 64]);
    const step = () => tidy(() => x.matmul(w).relu().add(1).exp().sum().item());
    step();
    const misses = memory().cpuCacheMisses;
    const live = memory().cpuBytes;
    for (let i = 0; i < 20; i++) step();
    expect(memory().cpuCacheMisses).toBe(misses);
    expect(memory().cpuBytes).toBe(live);
  });

  it('`using` disposes at the end of the block; dispose() takes containers', () => {
    const x = randn([8]);
    let seen: Tensor;
    {
      using y = x.add(1);
      seen = y;
      expect(y.isDisposed).toBe(false);
    }
    expect(seen.isDisposed).toBe(true);
    const list = [x.add(1), { t: x.add(2) }];
    dispose(list);
    expect((list[0] as Tensor).isDisposed).toBe(true);
    expect((list[1] as { t: Tensor }).t.isDisposed).toBe(true);
  });
});
