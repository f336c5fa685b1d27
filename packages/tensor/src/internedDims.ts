/**
 * Note [Interned dims]
 * A tensor's shape and strides are frozen arrays, and equal ones are the same array: the
 * constructor looks them up by value in a trie keyed by each size in turn. Every op makes
 * tensors, so this replaces an allocation and a freeze per array with a few Map lookups, and
 * it lets autograd describe a node's inputs by the identity of their shape arrays (Note [Node
 * memory]): a fresh array per tensor missed its cache on every op, at about a third of a tiny
 * op's time.
 *
 * A shape is an array of non-negative integers, so a size is its own Map key. The table is
 * bounded: past MAX_ENTRIES trie nodes it starts again empty (a program that makes tensors of
 * endless distinct shapes must not grow it forever). Arrays handed out before stay valid; only
 * later equal shapes get a new array, so equal arrays are usually, not always, identical:
 * compare shapes by value (shapesEqual), never by identity.
 */
interface DimsNode {
  dims: readonly number[] | null;
  next: Map<number, DimsNode> | null;
}

const MAX_ENTRIES = 1 << 14;
const EMPTY: readonly number[] = Object.freeze([]);

let root: DimsNode = { dims: EMPTY, next: null };
let entries = 0;

/** The interned frozen array equal to `dims` (Note [Interned dims]). */
export function internDims(dims: readonly number[]): readonly number[] {
  let node = root;
  for (let i = 0; i < dims.length; i++) {
    const size = dims[i]!;
    let next = node.next;
    if (next === null) node.next = next = new Map();
    let child = next.get(size);
    if (child === undefined) {
      if (++entries > MAX_ENTRIES) {
        root = { dims: EMPTY, next: null };
        entries = 0;
        return internDims(dims);
      }
      next.set(size, (child = { dims: null, next: null }));
    }
    node = child;
  }
  return (node.dims ??= Object.isFrozen(dims) ? dims : Object.freeze(dims.slice()));
}
