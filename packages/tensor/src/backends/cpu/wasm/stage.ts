import type { Tensor } from '../../../tensor.js';
import type { WasmRuntime } from './wasmRuntime.js';

/** Views whose storage span is larger than this many times their size are copied contiguous first. */
const MAX_SPAN_RATIO = 2;

/**
 * Copies the part of a float32 tensor's storage that its view can touch into the arena
 * and returns the byte offset of its first element (`t.offset`), or null when the view
 * spreads over far more storage than it covers (a thin slice of a big tensor), where the
 * caller should make it contiguous first. Strides are kept: the kernels take them.
 */
export function stageView(runtime: WasmRuntime, t: Tensor): number | null {
  let last = t.offset;
  for (let d = 0; d < t.shape.length; d++) last += (t.shape[d]! - 1) * t.strides[d]!;
  const span = last - t.offset + 1;
  if (span > MAX_SPAN_RATIO * t.numel + 1024) return null;
  const data = t.storage.data as Float32Array;
  return runtime.stage(data.subarray(t.offset, t.offset + span));
}
