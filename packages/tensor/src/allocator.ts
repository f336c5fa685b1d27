import { envCount } from './envCount.js';
import { TensorError } from './errors.js';
import { type HeapBlock, HeapBlocks } from './heapBlocks.js';

/**
 * Note [Caching allocator]
 * The memory of cpu storages of MIN_CACHED_BYTES or more comes from here (float32 ones of
 * MIN_HEAP_BYTES or more from blocks of wasm memory where there is one, in the same buckets:
 * Note [Storages in wasm memory]): ArrayBuffers whose sizes are rounded up to a bucket (4
 * buckets per power of two, so at most 25% is wasted: PyTorch's roundup_power2_divisions),
 * kept on a free list per bucket when their storage is released instead of being left to
 * the GC. A reused buffer is already mapped:
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
let limit = envCount(env?.WIREGRAD_CPU_CACHE_BYTES, 0) ?? DEFAULT_LIMIT;

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

/**
 * Note [Storages in wasm memory]
 * A float32 storage of MIN_HEAP_BYTES or more lives inside the shared WebAssembly.Memory of
 * the wasm kernels where there is one (Note [Wasm arena]): its typed array is a view of that
 * memory, so a kernel passes its byte offset and reads and writes it in place, from every
 * thread of the pool, instead of copying operands in and results out (copying was two thirds
 * of a 1M-element add). The memory is never detached (a shared memory's old buffers stay
 * valid when it grows), so such a view stays usable as any other typed array.
 *
 * Smaller float32 storages keep buffers of their own (Note [Caching allocator]), which a wasm
 * kernel copies in and out. Below 16 KiB only matmul and conv operands are copied: elementwise
 * ops, sums and softmax of fewer than 4096 floats run in TypeScript. From 16 to 64 KiB the
 * kernels do not need the copy (in place, an add or sum of 4K-16K floats took 0.4-0.7 times
 * as long; 2-core machine at load 11-15); what keeps those storages out is identity: a storage
 * in the memory has the whole memory as its `data.buffer`, so code that tells two storages
 * apart by their buffers (autograd's spec that a saved tensor's storage is not reused does)
 * would take any two for one. The floor can come down to 16 KiB once such code compares byte
 * offsets as well.
 *
 * Blocks are carved from the end of the memory (WasmHeap.carve), 64-byte aligned and padded
 * so a SIMD loop may run over a block's tail, in the buckets of Note [Caching allocator]. A
 * freed block joins the heap's free blocks, which are cut to serve smaller requests and
 * merged with free neighbours to serve bigger ones (Note [Coalescing heap blocks]);
 * memory().cpuCachedBytes counts them with the cached buffers. Wasm memory never shrinks (no
 * API gives its pages back), so neither the cache limit nor emptyCache() can drop free
 * blocks, and they stay counted after emptyCache(). A released storage's block is free at
 * once (Note [Releasing storages]); the block of a storage the GC collects is freed when its
 * typed array itself is collected (a FinalizationRegistry on the array, never on the storage,
 * so whoever still holds the array keeps the block). The heap carves at most its cap
 * (setHeapLimit, WIREGRAD_CPU_HEAP_BYTES, 256 MiB by default); past it, and where there is
 * no wasm runtime (no SharedArrayBuffer), storages get ordinary buffers and the kernels copy
 * them. The cap also bounds what a loop that never disposes its results keeps: each block's
 * array carries a ballast V8 counts (Note [Telling V8 about heap blocks]), so a loop that yields
 * between steps gets the blocks of its dead storages back after a GC (1M-element adds dropped,
 * awaiting between them: 218-254 MB resident against 424 MB without ballasts, load 16-21), but
 * one that never yields fills the heap to its cap first (FinalizationRegistry callbacks run
 * between tasks only) with what it drops itself; what the libraries know nobody else holds they
 * release at once (Note [Gradients nobody else saw], Note [Sequential's intermediates] in
 * @wiregrad/nn), so a PyTorch-style training loop does not.
 *
 * Everything that reads `storage.data.buffer` sees a SharedArrayBuffer spanning the whole
 * memory: it must use byteOffset/byteLength (rpc's tensor frames do; zeromq.js sends views of
 * shared memory), and a copy taken with slice() (toTypedArray) is an ordinary buffer.
 */
export const MIN_HEAP_BYTES = 65536;
/** Bytes after each block that a SIMD tail may touch. */
const HEAP_PADDING = 64;

/** The memory float32 storages may live in: carved at its end, viewed as floats. */
export interface WasmHeap {
  /** A fresh 64-byte-aligned region of `bytes`, or null when the memory cannot grow by that much. */
  carve(bytes: number): number | null;
  /** `length` floats at byte offset `ptr` of the memory. */
  floats(ptr: number, length: number): Float32Array;
}

let heapOf: () => WasmHeap | null = () => null;
let heapLimit = envCount(env?.WIREGRAD_CPU_HEAP_BYTES, 0) ?? 256 * 1024 * 1024;
/** The smallest block a storage asks for: the bucket of MIN_HEAP_BYTES and its padding. */
const blocks = new HeapBlocks(MIN_HEAP_BYTES + HEAP_PADDING);
/** Frees the block of an array the GC collected; the unregister token is the array itself. */
const heapArrays = new FinalizationRegistry<number>((ptr) => blocks.release(ptr));
/**
 * Note [Telling V8 about heap blocks]
 * The GC sees a storage in wasm memory as a small view, not as the block it holds, so code that
 * drops its tensors to the GC (PyTorch's style: no dispose(), no tidy()) filled the heap to its
 * cap before a mark-compact found the dead views and gave their blocks back. Each such block's
 * array carries a ballast: an ArrayBuffer of the block's size from Buffer.allocUnsafe (malloc,
 * never written, so no page of it is resident), which V8 counts as external memory of the array.
 * Dropped blocks so press for a GC as ordinary buffers do, and their blocks return (through
 * heapArrays' callbacks, run between tasks) to be reused without fresh page faults. A released
 * storage gives its ballast back to `spareBallasts` for the next block of its size, so code that
 * releases its storages allocates no new ballast (and does not press for GCs it does not need). A
 * loop that never yields still fills the heap: the callbacks only run between tasks.
 */
const ballasts = new WeakMap<Float32Array, ArrayBufferLike>();
const spareBallasts = new Map<number, ArrayBufferLike[]>();
let spareBallastBytes = 0;

function takeBallast(size: number): ArrayBufferLike | null {
  const spare = spareBallasts.get(size)?.pop();
  if (spare !== undefined) {
    spareBallastBytes -= size;
    return spare;
  }
  return NodeBuffer ? NodeBuffer.allocUnsafe(size).buffer : null;
}

function giveBackBallast(ballast: ArrayBufferLike): void {
  const size = ballast.byteLength;
  if (spareBallastBytes + size > heapLimit) return;
  let list = spareBallasts.get(size);
  if (!list) spareBallasts.set(size, (list = []));
  list.push(ballast);
  spareBallastBytes += size;
}

/** Lets the wasm runtime (created on first use) serve float32 storages (Note [Storages in wasm memory]). */
export function setWasmHeap(source: () => WasmHeap | null): void {
  heapOf = source;
}

/**
 * `length` float32s in the wasm memory (>= MIN_HEAP_BYTES): a block cut from a free one
 * (Note [Coalescing heap blocks]), zero-filled when `zeroed`, or a fresh one; null when there
 * is no heap or it is at its cap.
 */
export function takeHeapFloats(length: number, zeroed: boolean): Float32Array | null {
  const size = bucketBytes(length * 4) + HEAP_PADDING;
  const wasm = heapOf();
  if (wasm === null) return null;
  let ptr = blocks.take(size);
  const fresh = ptr === null;
  if (ptr === null) {
    if (blocks.carvedBytes + size > heapLimit) return null;
    ptr = wasm.carve(size);
    if (ptr === null) return null;
    blocks.add(ptr, size);
    stats.misses++;
  } else {
    stats.hits++;
  }
  const data = wasm.floats(ptr, length);
  // a carved block is fresh memory (zero); a reused one holds what its last storages left
  if (zeroed && !fresh) data.fill(0);
  heapArrays.register(data, ptr, data);
  const ballast = takeBallast(size);
  if (ballast !== null) ballasts.set(data, ballast);
  return data;
}

/** Takes back the floats of a released storage (nothing may alias them any more). */
export function giveBackHeapFloats(data: Float32Array): void {
  heapArrays.unregister(data);
  const ballast = ballasts.get(data);
  if (ballast !== undefined) {
    ballasts.delete(data);
    giveBackBallast(ballast);
  }
  blocks.release(data.byteOffset);
}

/** The most bytes the wasm heap carves for storages (blocks already carved stay). */
export function setHeapLimit(bytes: number): void {
  if (!Number.isSafeInteger(bytes) || bytes < 0)
    throw new TensorError('INVALID_ARGUMENT', `setHeapLimit expects a byte count >= 0, got ${bytes}`);
  heapLimit = bytes;
}

export function getHeapLimit(): number {
  return heapLimit;
}

export interface HeapStats {
  /** bytes carved from the wasm memory for storages, live and free blocks (with their padding) */
  carvedBytes: number;
  /** bytes of free blocks (with their padding), ready for reuse */
  freeBytes: number;
}

export function heapStats(): HeapStats {
  return { carvedBytes: blocks.carvedBytes, freeBytes: blocks.freeBytes };
}

/** The heap's blocks in address order (Note [Coalescing heap blocks]). */
export function heapBlocks(): HeapBlock[] {
  return blocks.blocks();
}

/** Drops every cached buffer (they go to the GC); live storages are not affected, nor the wasm heap's free blocks. */
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
  /** bytes held by free buffers and free blocks of the wasm heap, ready for reuse */
  cachedBytes: number;
  /** allocations served from the cache / with a fresh buffer, since the process started */
  hits: number;
  misses: number;
}

export function cacheStats(): CacheStats {
  return { ...stats, cachedBytes: stats.cachedBytes + blocks.freeBytes };
}
