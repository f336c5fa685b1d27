import { afterEach, describe, expect, it } from 'vitest';
import { bucketBytes, getCacheLimit } from './allocator.js';
import { Tensor, emptyCache, memory, randn, setCacheLimit, tensor, zeros } from './index.js';

const N = 4096; // 16 KiB of float32: served by the cache
const bufferOf = (t: Tensor) => t.storage.data.buffer;
const defaultLimit = getCacheLimit();

afterEach(() => setCacheLimit(defaultLimit));

describe('the cpu caching allocator (Note [Caching allocator])', () => {
  it('rounds requests up to 4 buckets per power of two', () => {
    expect([1024, 1025, 1280, 1281, 4096, 5000, 6144, 7000].map(bucketBytes)).toEqual([
      1024, 1280, 1280, 1536, 4096, 5120, 6144, 7168,
    ]);
  });

  it('a disposed result goes to the cache and the next allocation of its bucket reuses it, zero-filled where asked', () => {
    emptyCache();
    const a = randn([N]).exp();
    const buf = bufferOf(a);
    const live = memory().cpuBytes;
    a.dispose();
    expect(memory().cpuBytes).toBe(live - 4 * N);
    expect(memory().cpuCachedBytes).toBe(4 * N);
    const hits = memory().cpuCacheHits;
    const z = Tensor.empty([N], 'float32');
    expect(bufferOf(z)).toBe(buf);
    expect(memory().cpuCacheHits).toBe(hits + 1);
    expect(memory().cpuCachedBytes).toBe(0);
    expect(z.storage.data.every((v) => v === 0)).toBe(true);
    // a smaller request of the same bucket gets it too, as a shorter array
    z.dispose();
    const shorter = Tensor.uninitialized([N - 100], 'float32');
    expect(bufferOf(shorter)).toBe(buf);
    expect(shorter.storage.data.length).toBe(N - 100);
  });

  it('using a disposed tensor throws DISPOSED, and disposing twice does nothing', () => {
    const a = randn([N]).mul(2);
    a.dispose();
    a.dispose();
    expect(a.isDisposed).toBe(true);
    expect(() => a.add(1)).toThrow(expect.objectContaining({ code: 'DISPOSED' }));
    expect(a.toString()).toBe('tensor(<disposed>)');
  });

  it('a released storage still held by a live view is not reused: the view keeps reading it', () => {
    emptyCache();
    const base = randn([N]).add(1);
    const values = base.toTypedArray();
    const square = base.reshape([64, 64]);
    const view = square.t();
    // every tensor over the storage holds it: the base and both views
    expect(base.storage.holds).toBe(3);
    base.dispose();
    square.dispose();
    expect(base.storage.holds).toBe(1);
    const other = randn([N]).add(2);
    expect(bufferOf(other)).not.toBe(bufferOf(view));
    const transposed = Float32Array.from({ length: N }, (_, k) => values[(k % 64) * 64 + Math.floor(k / 64)]!);
    expect(view.toTypedArray()).toEqual(transposed);
    const buf = bufferOf(view);
    view.dispose();
    expect(() => view.sum()).toThrow(expect.objectContaining({ code: 'DISPOSED' }));
    expect(bufferOf(Tensor.empty([N], 'float32'))).toBe(buf);
  });

  it('a storage retained by another holder (a saved tensor, a pending send) is reused only after release()', () => {
    emptyCache();
    const t = randn([N]).neg();
    const values = t.toTypedArray();
    const storage = t.storage;
    storage.retain();
    t.dispose();
    expect(storage.disposed).toBe(false);
    const other = Tensor.uninitialized([N], 'float32');
    other.storage.data.fill(7);
    expect(storage.data).toEqual(values);
    storage.release();
    expect(storage.disposed).toBe(true);
    expect(memory().cpuCachedBytes).toBe(4 * N);
  });

  it('never caches memory it did not allocate (a user typed array), nor what toTypedArray() returned', () => {
    emptyCache();
    const mine = new Float32Array(N).fill(3);
    const t = tensor(mine);
    t.dispose();
    expect(memory().cpuCachedBytes).toBe(0);
    expect(mine[0]).toBe(3);
    const strided = randn([64, 64]).add(0).t();
    const arr = strided.toTypedArray();
    strided.dispose();
    expect(Tensor.empty([N], 'float32').storage.data.buffer).not.toBe(arr.buffer);
  });

  it('ops release the views they make on the way: operands keep one hold, a disposed matmul result is cached', () => {
    emptyCache();
    const a = randn([64, 64]);
    const b = randn([64, 64]);
    for (const c of [
      a.matmul(b),
      a.reshape([2, 32, 64]).matmul(b),
      a.reshape([1, 64, 64]).matmul(b.reshape([1, 64, 64])),
    ]) {
      expect(c.storage.holds).toBe(1);
      c.dispose();
      expect(c.storage.disposed).toBe(true);
    }
    expect(memory().cpuCachedBytes).toBeGreaterThanOrEqual(4 * N);
  });

  it('keeps at most the cache limit, dropping the buffers freed longest ago; emptyCache() drops all', () => {
    emptyCache();
    setCacheLimit(3 * 4 * N);
    const ts = [0, 1, 2, 3].map(() => zeros([N]).add(1));
    const [oldest, ...rest] = ts.map(bufferOf);
    ts.forEach((t) => t.dispose());
    expect(memory().cpuCachedBytes).toBe(3 * 4 * N);
    const reused = [0, 1, 2].map(() => Tensor.empty([N], 'float32'));
    expect(new Set(reused.map(bufferOf))).toEqual(new Set(rest));
    expect(reused.map(bufferOf)).not.toContain(oldest);
    reused.forEach((t) => t.dispose());
    emptyCache();
    expect(memory().cpuCachedBytes).toBe(0);
    setCacheLimit(0);
    zeros([N]).add(1).dispose();
    expect(memory().cpuCachedBytes).toBe(0);
    expect(() => setCacheLimit(-1)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
