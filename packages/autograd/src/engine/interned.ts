import type { DType, Device } from '@wiregrad/tensor';
import type { InputMetadata } from './node.js';

/**
 * Interned descriptions of tensors, shared by every node that sees the same ones (See Note
 * [Node memory]): one frozen {shape, dtype, device} per shape array (a tensor's shape array
 * is interned by value, Note [Interned dims], so tensors of one shape share it), and one frozen array per
 * sequence of them. A graph of 100 000 ops over a few shapes then holds a few of each,
 * not one per node. Weak maps throughout: nothing here keeps a shape alive.
 */
const byShape = new WeakMap<readonly number[], Map<Device, Map<DType, InputMetadata>>>();

export function internMetadata(shape: readonly number[], dtype: DType, device: Device): InputMetadata {
  let byDevice = byShape.get(shape);
  if (!byDevice) byShape.set(shape, (byDevice = new Map()));
  let byDtype = byDevice.get(device);
  if (!byDtype) byDevice.set(device, (byDtype = new Map()));
  let meta = byDtype.get(dtype);
  if (!meta) byDtype.set(dtype, (meta = Object.freeze({ shape, dtype, device })));
  return meta;
}

interface TupleNode {
  tuple: readonly InputMetadata[] | null;
  next: WeakMap<InputMetadata, TupleNode> | null;
}

const root: TupleNode = { tuple: Object.freeze([]), next: null };

/** The frozen array holding `items` in order, the same array for the same items. */
export function internTuple(items: readonly InputMetadata[]): readonly InputMetadata[] {
  let node = root;
  for (const item of items) {
    node.next ??= new WeakMap();
    let child = node.next.get(item);
    if (!child) node.next.set(item, (child = { tuple: null, next: null }));
    node = child;
  }
  return (node.tuple ??= Object.freeze([...items]));
}
