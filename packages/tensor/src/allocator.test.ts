import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MIN_HEAP_BYTES,
  bucketBytes,
  getCacheLimit,
  getHeapLimit,
  heapBlocks,
  heapStats,
  setHeapLimit,
} from './allocator.js';
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

describe('float32 storages in wasm memory (Note [Storages in wasm memory])', () => {
  const M = MIN_HEAP_BYTES / 4;
  const inHeap = (t: Tensor) => t.storage.data.buffer instanceof SharedArrayBuffer;
  const at = (t: Tensor) => t.storage.data.byteOffset;
  /** the block of `floats` floats: their bucket and the padding after it */
  const blockBytes = (floats: number) => bucketBytes(4 * floats) + 64;
  /** the free block holding byte `ptr`, if it is free */
  const freeBlockAt = (ptr: number) => heapBlocks().find((b) => b.free && b.start <= ptr && ptr < b.start + b.size);
  const isFree = (ptr: number) => freeBlockAt(ptr) !== undefined;
  /** floats enough that no free block of the heap can hold them (nor them less a few): such a storage is carved */
  const moreThanAnyFreeBlock = () => Math.max(2 * M, ...heapBlocks().map((b) => (b.free ? b.size / 4 : 0)));
  const defaultHeapLimit = getHeapLimit();
  afterEach(() => setHeapLimit(defaultHeapLimit));

  it('holds float32 storages of MIN_HEAP_BYTES or more, not smaller ones nor other dtypes', () => {
    expect(inHeap(randn([M]))).toBe(true);
    expect(inHeap(zeros([M]))).toBe(true);
    expect(inHeap(randn([M]).exp())).toBe(true);
    expect(inHeap(randn([M - 1]))).toBe(false);
    expect(inHeap(zeros([M], { dtype: 'float64' }))).toBe(false);
    expect(inHeap(zeros([M], { dtype: 'int32' }))).toBe(false);
    // a user's array is copied into memory of its own
    expect(inHeap(tensor(new Float32Array(M)))).toBe(false);
  });

  it("a disposed storage's block is free at once and serves the next allocation that fits, zero-filled where asked", () => {
    const n = moreThanAnyFreeBlock();
    const a = randn([n]).exp();
    const ptr = at(a);
    const { carvedBytes, freeBytes } = heapStats();
    a.dispose();
    expect(isFree(ptr)).toBe(true);
    expect(heapStats().freeBytes).toBe(freeBytes + blockBytes(n));
    // a shorter request of the same bucket: the only free block big enough
    const z = Tensor.empty([n - 10], 'float32');
    expect(at(z)).toBe(ptr);
    expect(z.storage.data.every((v) => v === 0)).toBe(true);
    expect(heapStats()).toEqual({ carvedBytes, freeBytes });
  });

  it('memory().cpuCachedBytes counts the free blocks; emptyCache() leaves them, since wasm memory never shrinks', () => {
    const t = randn([2 * M]).exp();
    const cached = memory().cpuCachedBytes;
    t.dispose();
    expect(memory().cpuCachedBytes).toBe(cached + blockBytes(2 * M));
    emptyCache();
    expect(memory().cpuCachedBytes).toBe(heapStats().freeBytes);
    expect(heapStats().freeBytes).toBeGreaterThanOrEqual(blockBytes(2 * M));
  });

  it('a big block freed into pieces serves a big request again, without the heap growing (Note [Coalescing heap blocks])', () => {
    const n = moreThanAnyFreeBlock();
    const big = Tensor.uninitialized([4 * n], 'float32');
    const ptr = at(big);
    big.dispose();
    // its block, merged with a free neighbour if it had one
    const block = freeBlockAt(ptr)!;
    const within = (t: Tensor) => at(t) >= block.start && at(t) + 4 * t.numel <= block.start + block.size;
    const carved = heapStats().carvedBytes;
    // three pieces cut from it: no other free block is big enough for one
    const pieces = [0, 1, 2].map(() => Tensor.uninitialized([n], 'float32'));
    expect(pieces.every(within)).toBe(true);
    for (const i of [1, 0, 2]) pieces[i]!.dispose();
    expect(freeBlockAt(ptr)).toEqual(block);
    expect(within(Tensor.uninitialized([4 * n], 'float32'))).toBe(true);
    expect(heapStats().carvedBytes).toBe(carved);
  });

  it('a released storage still held by a live view or another holder is not reused', () => {
    const base = randn([M]).add(1);
    const values = base.toTypedArray();
    const square = base.reshape([M / 64, 64]);
    const view = square.t();
    base.dispose();
    square.dispose();
    const storage = view.storage;
    storage.retain();
    view.dispose();
    expect(storage.disposed).toBe(false);
    const others = [0, 1, 2].map(() => randn([M]).mul(3));
    expect(others.map(at)).not.toContain(storage.data.byteOffset);
    expect(storage.data).toEqual(values);
    const ptr = storage.data.byteOffset;
    expect(isFree(ptr)).toBe(false);
    storage.release();
    expect(storage.disposed).toBe(true);
    expect(isFree(ptr)).toBe(true);
  });

  it('what toTypedArray() returns is an ordinary buffer, not a view of the shared memory', () => {
    const x = randn([M]).mul(2);
    const arr = x.toTypedArray();
    expect(arr.buffer instanceof SharedArrayBuffer).toBe(false);
    expect(arr).toEqual(x.storage.data);
  });

  it('past its cap storages get ordinary buffers, and the kernels copy those', () => {
    const n = moreThanAnyFreeBlock();
    const inside = randn([n]);
    setHeapLimit(heapStats().carvedBytes);
    const outside = randn([n]);
    expect(inHeap(outside)).toBe(false);
    const sum = inside.add(outside);
    expect(inHeap(sum)).toBe(false);
    const want = inside.toTypedArray().map((v, i) => v + outside.storage.data[i]!);
    expect(sum.toTypedArray()).toEqual(want);
    expect(() => setHeapLimit(-1)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('the block of a storage the GC collects without a dispose() is freed once its array is collected', async () => {
    const collect = () => {
      setFlagsFromString('--expose-gc');
      (runInNewContext('gc') as () => void)();
    };
    const arrays = [0, 1, 2, 3].map(() => randn([3 * M + 17]).storage.data);
    const ptrs = arrays.map((a) => a.byteOffset);
    const refs = arrays.splice(0).map((a) => new WeakRef(a));
    for (let turn = 0; turn < 50 && refs.some((r) => r.deref() !== undefined); turn++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      collect();
    }
    expect(refs.every((r) => r.deref() === undefined)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ptrs.every(isFree)).toBe(true);
  });
});
