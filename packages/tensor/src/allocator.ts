import { TensorError } from './errors.js';

/**
 * Note [Caching allocator]
 * The memory of cpu storages of MIN_CACHED_BYTES or more comes from here: ArrayBuffers
 * whose sizes are rounded up to a bucket (4 buckets per power of two, so at most 25% is
 * wasted: PyTorch's roundup_power2_divisions), kept on a free list per bucket when their
 * storage is released instead of being left to the GC. A reused buffer is already mapped:
 * an op writing a fresh 4 MiB result into it pays no page faults, which cost more than the
 * op itself (a 1M-element add). The cache holds at most `limit` bytes (setCacheLimit,
 * WIREGRAD_CPU_CACHE_BYTES, 256 MiB by default); past it, the buffers freed longest ago are
 * dropped for the GC. emptyCache() drops them all (PyTorch's torch.cuda.empty_cache).
 *
 * Only an explicit release refills the cache (See Note [Releasing storages]): a storage
 * the GC collects takes its buffer with it, because a raw typed array handed out earlier
 * may still alias it, and the allocator cannot know. Buffers smaller than MIN_CACHED_BYTES
 * are plain typed arrays: V8 allocates those in its young generation faster than a
 * free-list lookup.
 */
export const MIN_CACHED_BYTES = 1024;
const DEFAULT_LIMIT = 256 * 1024 * 1024;

const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
let limit = parseLimit(env?.WIREGRAD_CPU_CACHE_BYTES) ?? DEFAULT_LIMIT;

function parseLimit(value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** Free buffers per bucket size, and all of them in the order they were freed (oldest first). */
const freeLists = new Map<number, ArrayBuffer[]>();
const byAge = new Map<ArrayBuffer, number>();
const stats = { cachedBytes: 0, hits: 0, misses: 0 };

/** The bucket a request of `bytes` (>= MIN_CACHED_BYTES) is served from. */
export function bucketBytes(bytes: number): number {
  const pow = 2 ** Math.floor(Math.log2(bytes));
  const step = pow / 4;
  return Math.ceil(bytes / step) * step;
}

const NodeBuffer = (globalThis as { Buffer?: { allocUnsafe(n: number): Uint8Array } }).Buffer;

/** A fresh, not zero-filled buffer: big Buffer.allocUnsafe allocations own their ArrayBuffer (no calloc). */
function freshUninitialized(bytes: number): ArrayBuffer {
  if (!NodeBuffer) return new ArrayBuffer(bytes);
  const b = NodeBuffer.allocUnsafe(bytes);
  return b.byteOffset === 0 && b.buffer.byteLength === bytes ? (b.buffer as ArrayBuffer) : new ArrayBuffer(bytes);
}

/**
 * A buffer of at least `bytes` (>= MIN_CACHED_BYTES): a cached one of its bucket, zero-filled
 * over its first `bytes` when `zeroed`, else a fresh one.
 */
export function takeBuffer(bytes: number, zeroed: boolean): ArrayBuffer {
  const size = bucketBytes(bytes);
  const list = freeLists.get(size);
  const buf = list?.pop();
  if (buf === undefined) {
    stats.misses++;
    return zeroed ? new ArrayBuffer(size) : freshUninitialized(size);
  }
  stats.hits++;
  stats.cachedBytes -= size;
  byAge.delete(buf);
  if (zeroed) new Uint8Array(buf, 0, bytes).fill(0);
  return buf;
}

/** Takes back the buffer of a released storage (nothing may alias it any more). */
export function giveBackBuffer(buf: ArrayBuffer): void {
  const size = buf.byteLength;
  if (size > limit) return;
  let list = freeLists.get(size);
  if (!list) freeLists.set(size, (list = []));
  list.push(buf);
  byAge.set(buf, size);
  stats.cachedBytes += size;
  if (stats.cachedBytes > limit) evict(limit);
}

/** Drops the buffers freed longest ago until at most `keep` bytes stay cached. */
function evict(keep: number): void {
  for (const [buf, size] of byAge) {
    if (stats.cachedBytes <= keep) return;
    byAge.delete(buf);
    const list = freeLists.get(size)!;
    list.splice(list.indexOf(buf), 1);
    stats.cachedBytes -= size;
  }
}

/** Drops every cached buffer (they go to the GC); live storages are not affected. */
export function emptyCache(): void {
  evict(0);
  freeLists.clear();
}

/** The most bytes the cache keeps (0 turns caching off); lowering it drops the oldest buffers now. */
export function setCacheLimit(bytes: number): void {
  if (!Number.isSafeInteger(bytes) || bytes < 0)
    throw new TensorError('INVALID_ARGUMENT', `setCacheLimit expects a byte count >= 0, got ${bytes}`);
  limit = bytes;
  evict(limit);
}

export function getCacheLimit(): number {
  return limit;
}

export interface CacheStats {
  /** bytes held by free buffers, ready for reuse */
  cachedBytes: number;
  /** allocations served from the cache / with a fresh buffer, since the process started */
  hits: number;
  misses: number;
}

export function cacheStats(): CacheStats {
  return { ...stats };
}
