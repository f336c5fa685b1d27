import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { broadcastStrides, shapesEqual } from '../../../shape.js';
import { compileElementwise, type ElementwiseLoop } from '../elementwise.js';
import { wasmBinaryInto } from '../wasm/wasmBinaryInto.js';

const EXPR: Readonly<Record<string, string>> = {
  [K.Add]: 'x + y',
  [K.Sub]: 'x - y',
  [K.Mul]: 'x * y',
  [K.Div]: 'x / y',
  // alpha (p0) is a float32 and alpha y is rounded before the add, as the wasm kernel computes it
  Axpy: 'x + Math.fround(p0 * y)',
};
const loops = new Map<string, ElementwiseLoop>();

/**
 * BinaryInto (Note [Kernel names]): x op= y for float32 x contiguous, y float32 broadcast to
 * x's shape and not overlapping x unless it is x itself (ops/inplace.ts checks). Each element
 * is read before it is written at the same index, so the loops may write over their operand.
 * With attrs.alpha (op Add, y of x's shape): x += alpha y in one pass (add_ with alpha).
 */
export const binaryIntoKernel: KernelConfig = {
  kernelName: K.BinaryInto,
  device: 'cpu',
  kernelFunc: ([x, y], attrs) => {
    const alpha = attrs.alpha ?? 1;
    const op = alpha === 1 ? attrs.op : 'Axpy';
    const params = alpha === 1 ? [] : [Math.fround(alpha)];
    const done = wasmBinaryInto(attrs.op, x!, y!, alpha);
    const n = x!.numel;
    if (done === n) return [x!];
    let loop = loops.get(op);
    if (!loop) loops.set(op, (loop = compileElementwise(2, EXPR[op]!)));
    const shape = x!.shape;
    const yStrides = shapesEqual(y!.shape, shape) ? y!.strides : broadcastStrides(y!.shape, y!.strides, shape);
    if (done === 0) {
      const out = x!.storage.data.subarray(x!.offset, x!.offset + n);
      loop(
        [
          { data: x!.storage.data, offset: x!.offset, strides: x!.strides },
          { data: y!.storage.data, offset: y!.offset, strides: yStrides },
        ],
        out,
        shape,
        params,
      );
      return [x!];
    }
    // the last n % 4 elements of a vector loop: y is x's shape or a single value here
    const tail = [n - done];
    const yOffset = y!.offset + (y!.numel === 1 ? 0 : done);
    const yTailStride = y!.numel === 1 ? 0 : 1;
    loop(
      [
        { data: x!.storage.data, offset: x!.offset + done, strides: [1] },
        { data: y!.storage.data, offset: yOffset, strides: [yTailStride] },
      ],
      x!.storage.data.subarray(x!.offset + done, x!.offset + n),
      tail,
      params,
    );
    return [x!];
  },
};
