import type { Tensor } from '../../../tensor.js';
import type { WasmRuntime } from './wasmRuntime.js';

/** Views whose storage span is larger than this many times their size are copied contiguous first. */
const MAX_SPAN_RATIO = 2;

/**
 * The byte offset of a float32 tensor's first element (`t.offset`) for a kernel that reads
 * it through its strides: in place when its storage lives in wasm memory (Note [Storages in
 * wasm memory]), else the part of the storage its view can touch is copied into the arena.
 * Null when the view spreads over far more storage than it covers (a thin slice of a big
 * tensor) and would have to be copied, where the caller should make it contiguous first.
 */
export function stageView(runtime: WasmRuntime, t: Tensor): number | null {
  const data = t.storage.data as Float32Array;
  const inPlace = runtime.pointerOf(data);
  if (inPlace !== null) return inPlace + 4 * t.offset;
  let last = t.offset;
  for (let d = 0; d < t.shape.length; d++) last += (t.shape[d]! - 1) * t.strides[d]!;
  const span = last - t.offset + 1;
  if (span > MAX_SPAN_RATIO * t.numel + 1024) return null;
  return runtime.stage(data.subarray(t.offset, t.offset + span));
}
