import { describe, expect, it } from 'vitest';
import { type Tensor, Tensor as TensorClass, emptyCache, memory, noGrad, randn, tensor, tidy } from '../index.js';

const N = 4096; // float32 tensors of 16 KiB: counted by memory() and served by the cache

describe('autograd releases the buffers it owns (Note [Gradients the engine owns])', () => {
  it('a disposed tensor saved for backward keeps its storage (not reused) until backward frees the graph', () => {
    emptyCache();
    const x = randn([N], { requiresGrad: true });
    const y = x.exp(); // ExpBackward saves its output
    const values = y.toTypedArray();
    const storage = y.storage;
    y.dispose();
    expect(storage.disposed).toBe(false);
    const other = TensorClass.uninitialized([N], 'float32');
    other.storage.data.fill(-1);
    expect(other.storage.data.buffer).not.toBe(storage.data.buffer);
    const loss = y.sum();
    loss.backward();
    expect(x.grad!.toTypedArray()).toEqual(values);
    // backward freed the graph: the saved output's storage was released into the cache
    expect(storage.disposed).toBe(true);
    expect(memory().cpuCachedBytes).toBeGreaterThanOrEqual(4 * N);
  });

  it('retainGraph keeps saved tensors alive for a second backward', () => {
    const x = randn([N], { requiresGrad: true });
    const y = x.exp();
    y.dispose();
    const loss = y.sum();
    loss.backward(undefined, { retainGraph: true });
    const first = x.grad!.toTypedArray();
    x.grad = null;
    loss.backward();
    expect(x.grad!.toTypedArray()).toEqual(first);
  });

  it('releases intermediate gradients and InputBuffer sums: after backward only .grad is new', () => {
    const x = randn([N], { requiresGrad: true });
    const a = x.mul(2);
    const b = a.exp();
    // a reaches the loss on three paths (InputBuffer sums), AddBackward passes its gradient on twice
    const loss = a.add(b).mul(a).sum();
    const before = memory().cpuBytes;
    loss.backward();
    expect(memory().cpuBytes).toBe(before + 4 * N);
    // the last gradient was taken over as .grad (PyTorch steals it too): no copy, one holder
    expect(x.grad!.storage.holds).toBe(1);
    // d/dx [(a + e^a) a] = (1 + e^a) a' a + (a + e^a) a', with a = 2x and a' = 2
    const exact = Array.from(x.toTypedArray(), (v) => 2 * ((1 + Math.exp(2 * v)) * 2 * v + 2 * v + Math.exp(2 * v)));
    const got = x.grad!.toTypedArray();
    exact.forEach((e, i) => expect(Math.abs(got[i]! - e)).toBeLessThan(1e-4 * Math.max(1, Math.abs(e))));
  });

  it('backward(inputs=) releases its intermediate gradients too and takes the last one over as .grad, as PyTorch steals it there', () => {
    const x = randn([N], { requiresGrad: true });
    const w = randn([N], { requiresGrad: true });
    const loss = x.mul(2).exp().mul(w).sum();
    const before = memory().cpuBytes;
    loss.backward(undefined, { inputs: [x] });
    expect(memory().cpuBytes).toBe(before + 4 * N);
    expect(x.grad!.storage.holds).toBe(1);
    expect(w.grad).toBeNull();
    const exact = Array.from(x.toTypedArray(), (v, i) => 2 * Math.exp(2 * v) * w.toTypedArray()[i]!);
    const got = x.grad!.toTypedArray();
    exact.forEach((e, i) => expect(Math.abs(got[i]! - e)).toBeLessThan(1e-4 * Math.max(1, Math.abs(e))));
  });

  it('never releases what escaped: gradients seen by hooks, retained grads, createGraph gradients', () => {
    const x = randn([N], { requiresGrad: true });
    const y = x.mul(3);
    let seen: Tensor | null = null;
    y.registerHook((g) => {
      seen = g;
    });
    const z = y.exp();
    z.retainGrad();
    z.mul(2).sum().backward();
    expect(seen!.isDisposed).toBe(false);
    expect(seen!.sum().item()).toBeGreaterThan(0);
    expect(z.grad!.isDisposed).toBe(false);
    expect(z.grad!.storage.disposed).toBe(false);

    const w = randn([N], { requiresGrad: true });
    const loss = w.pow(3).sum();
    loss.backward(undefined, { createGraph: true });
    const g = w.grad!;
    const gSum = g.sum();
    w.grad = null;
    gSum.backward();
    expect(w.grad!.toTypedArray()).toEqual(noGrad(() => w.mul(6)).toTypedArray());
  });

  it('a training loop in tidy() holds flat memory: nothing freshly allocated after the first steps', () => {
    emptyCache();
    const w1 = randn([64, 32], { requiresGrad: true });
    const w2 = randn([32, 10], { requiresGrad: true });
    const xs = randn([64, 64]);
    const target = tensor(Int32Array.from({ length: 64 }, (_, i) => i % 10));
    const step = () =>
      tidy(() => {
        // set to none, releasing the old gradients (PyTorch's refcount frees them the same way)
        for (const w of [w1, w2]) {
          w.grad?.dispose();
          w.grad = null;
        }
        const logits = xs.matmul(w1).relu().matmul(w2);
        const loss = logits.logSoftmax(1).gather(1, target.unsqueeze(1)).mean().neg();
        loss.backward();
        noGrad(() => {
          w1.sub_(w1.grad!, { alpha: 0.01 });
          w2.sub_(w2.grad!, { alpha: 0.01 });
        });
        return loss.item();
      });
    for (let i = 0; i < 3; i++) step();
    const misses = memory().cpuCacheMisses;
    const live: number[] = [];
    for (let i = 0; i < 30; i++) {
      step();
      live.push(memory().cpuBytes);
    }
    expect(memory().cpuCacheMisses).toBe(misses);
    expect(Math.max(...live)).toBe(Math.min(...live));
  });
});
