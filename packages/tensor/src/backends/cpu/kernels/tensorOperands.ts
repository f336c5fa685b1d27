import { broadcastAll, broadcastStrides } from '../../../shape.js';
import { Tensor } from '../../../tensor.js';
import type { DType } from '../../../dtype.js';
import type { ElementwiseLoop, Operand } from '../elementwise.js';

/** Runs a compiled elementwise loop over tensors broadcast together, into a fresh contiguous output. */
export function runElementwise(loop: ElementwiseLoop, inputs: readonly Tensor[], outDtype: DType, params: readonly number[] = []): Tensor {
  const shape = inputs.length === 1 ? inputs[0]!.shape : broadcastAll(inputs.map((t) => t.shape));
  const operands: Operand[] = inputs.map((t) => ({
    data: t.storage.data,
    offset: t.offset,
    strides: broadcastStrides(t.shape, t.strides, shape),
  }));
  const out = Tensor.empty(shape, outDtype);
  loop(operands, out.storage.data, shape, params);
  return out;
}
