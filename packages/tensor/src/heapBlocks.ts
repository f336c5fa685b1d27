/**
 * Note [Coalescing heap blocks]
 * The blocks of the wasm heap (Note [Storages in wasm memory]) tile the regions carved for
 * them: every byte of a region belongs to exactly one block, taken or free, and each block
 * knows its neighbours in address order (PyTorch's Block prev/next in CUDACachingAllocator:
 * boundary tags kept beside the memory, since wasm memory holds the floats only). After
 * every take and release:
 *  - blocks never overlap, and carvedBytes is the sum of all blocks, freeBytes of the free ones;
 *  - no free block has a free neighbour: release() merges the block with a free block on
 *    either side, so pieces of a big block, once all freed, are the big block again.
 * Two regions are neighbours when one was carved right after the other (no staging region
 * of Note [Wasm arena] between them), and their blocks merge across the seam.
 *
 * take(size) serves address-ordered best fit: the smallest free block of at least `size`
 * bytes, the lowest one among equals. It is split when what remains is at least `minBlock`
 * (the smallest block a request can ask for), else taken whole, so no free block is too
 * small to serve any request and at most minBlock - 1 bytes of a block are never asked for.
 * A request nothing fits is carved at the end of the memory by the caller (add()).
 */
export interface HeapBlock {
  readonly start: number;
  readonly size: number;
  readonly free: boolean;
}

interface Block {
  start: number;
  size: number;
  free: boolean;
  prev: Block | null;
  next: Block | null;
}

/** Whether free block `a` comes before a block of `size` at `start` in best-fit order (by size, then address). */
const fitsBefore = (a: Block, size: number, start: number) => a.size < size || (a.size === size && a.start < start);

/** The blocks of the wasm heap and their free list (Note [Coalescing heap blocks]). */
export class HeapBlocks {
  /** free blocks in best-fit order: by size, then by address */
  private readonly freeBlocks: Block[] = [];
  private readonly taken = new Map<number, Block>();
  /** the block that ends highest, which a region carved right after it follows */
  private last: Block | null = null;
  private carved = 0;
  private freed = 0;

  constructor(private readonly minBlock: number) {}

  /** bytes of every block, taken or free */
  get carvedBytes(): number {
    return this.carved;
  }

  /** bytes of the free blocks */
  get freeBytes(): number {
    return this.freed;
  }

  /** The start of a taken block of at least `size` bytes cut from the best-fitting free block, or null when none fits. */
  take(size: number): number | null {
    const i = this.firstAtLeast(size, 0);
    const b = this.freeBlocks[i];
    if (b === undefined) return null;
    this.freeBlocks.splice(i, 1);
    if (b.size - size >= this.minBlock) {
      const rest: Block = { start: b.start + size, size: b.size - size, free: true, prev: b, next: b.next };
      if (b.next) b.next.prev = rest;
      if (this.last === b) this.last = rest;
      b.next = rest;
      b.size = size;
      this.insertFree(rest);
    }
    b.free = false;
    this.freed -= b.size;
    this.taken.set(b.start, b);
    return b.start;
  }

  /** Records `size` bytes just carved at `start`, above every block, as a taken block. */
  add(start: number, size: number): void {
    const b: Block = { start, size, free: false, prev: null, next: null };
    if (this.last !== null && this.last.start + this.last.size === start) {
      b.prev = this.last;
      this.last.next = b;
    }
    this.last = b;
    this.carved += size;
    this.taken.set(start, b);
  }

  /** Frees the taken block at `start`, merged with a free neighbour on either side. */
  release(start: number): void {
    let b = this.taken.get(start)!;
    this.taken.delete(start);
    this.freed += b.size;
    const { prev, next } = b;
    if (prev?.free) {
      this.removeFree(prev);
      this.absorbNext(prev);
      b = prev;
    }
    if (next?.free) {
      this.removeFree(next);
      this.absorbNext(b);
    }
    b.free = true;
    this.insertFree(b);
  }

  /** Every block in address order (for inspection). */
  blocks(): HeapBlock[] {
    const all = [...this.taken.values(), ...this.freeBlocks].sort((a, b) => a.start - b.start);
    return all.map(({ start, size, free }) => ({ start, size, free }));
  }

  /** `b` takes in its next neighbour, which leaves the list of blocks. */
  private absorbNext(b: Block): void {
    const n = b.next!;
    b.size += n.size;
    b.next = n.next;
    if (n.next) n.next.prev = b;
    if (this.last === n) this.last = b;
  }

  /** The index in the free list where a block of `size` at `start` goes: after every block that fitsBefore it. */
  private firstAtLeast(size: number, start: number): number {
    let lo = 0;
    let hi = this.freeBlocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (fitsBefore(this.freeBlocks[mid]!, size, start)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insertFree(b: Block): void {
    this.freeBlocks.splice(this.firstAtLeast(b.size, b.start), 0, b);
  }

  private removeFree(b: Block): void {
    this.freeBlocks.splice(this.firstAtLeast(b.size, b.start), 1);
  }
}
