import { broadcastShapes, broadcastStrides, shapesEqual } from '../../../shape.js';
import { Tensor } from '../../../tensor.js';
import type { DType } from '../../../dtype.js';
import type { ElementwiseLoop, Operand } from '../elementwise.js';

const NO_PARAMS: readonly number[] = [];

/** Runs a compiled elementwise loop over tensors broadcast together, into a fresh contiguous output. */
export function runElementwise(
  loop: ElementwiseLoop,
  inputs: readonly Tensor[],
  outDtype: DType,
  params: readonly number[] = NO_PARAMS,
): Tensor {
  let shape = inputs[0]!.shape;
  for (let i = 1; i < inputs.length; i++) {
    const s = inputs[i]!.shape;
    if (!shapesEqual(s, shape)) shape = broadcastShapes(shape, s);
  }
  const operands: Operand[] = inputs.map((t) => ({
    data: t.storage.data,
    offset: t.offset,
    strides: t.shape === shape || shapesEqual(t.shape, shape) ? t.strides : broadcastStrides(t.shape, t.strides, shape),
  }));
  // the loop writes every element
  const out = Tensor.uninitialized(shape, outDtype);
  loop(operands, out.storage.data, shape, params);
  return out;
}
