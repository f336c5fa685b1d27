import { category } from '../dtype.js';
import { recordsGraph, runKernel1 } from '../dispatch.js';
import { hasKernel } from '../kernelRegistry.js';
import type { KernelAttrs } from '../kernelSpecs.js';
import { TensorError, fmtShape } from '../errors.js';
import * as K from '../kernelNames.js';
import { broadcastShapes, shapesEqual } from '../shape.js';
import { Tensor } from '../tensor.js';
import { add, div, mul, sub, type AlphaOptions } from './binary.js';
import { moveTo } from './copy.js';
import { TORCH_TYPE_NAME, promoteOperands, type TensorOrScalar } from './operands.js';
import { clamp } from './unary.js';
import { checkOptions, checkScalar, checkTensor } from '../validate.js';

/**
 * Note [In-place ops]
 * `x.op_(y)` computes `op(x, y)` out of place, then the CopyInto kernel writes the result
 * into x's storage (dispatch bumps the version once, shared by every view). Autograd so sees
 * two ordinary kernels and records a correct graph: the copy's gradient flows to the result,
 * none to x's old value; the copy's node carries the op's torch name (AddBackward0 for add_).
 * The write follows torch's rules: the result must broadcast to x's
 * own shape, its dtype must be castable to x's under torch's can_cast (no float into int32,
 * no int into bool), and x must not be a view whose elements alias one another (expand).
 */
function checkWritable(target: Tensor, resultShape: readonly number[]): void {
  const shape = broadcastShapes(target.shape, resultShape);
  if (!shapesEqual(shape, target.shape)) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `output with shape ${fmtShape(target.shape)} doesn't match the broadcast shape ${fmtShape(shape)}`,
    );
  }
  if (target.shape.some((s, d) => s > 1 && target.strides[d] === 0)) {
    throw new TensorError(
      'INVALID_ARGUMENT',
      'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.',
    );
  }
}

/**
 * `gradFnName` is what the write's graph node calls itself: torch names the node of `x.add_(y)`
 * AddBackward0, of `x.copy_(y)` CopyBackwards (attrs are ignored by the kernels).
 */
function writeInto(target: Tensor, result: Tensor, gradFnName: string): Tensor {
  if (category(result.dtype) > category(target.dtype)) {
    throw new TensorError(
      'DTYPE_MISMATCH',
      `result type ${TORCH_TYPE_NAME[result.dtype]} can't be cast to the desired output type ${TORCH_TYPE_NAME[target.dtype]}`,
    );
  }
  checkWritable(target, result.shape);
  runKernel1(K.CopyInto, [target, result], { gradFnName });
  return target;
}

/**
 * Note [In-place fast path]
 * When autograd records nothing (grad mode off, as in an optimizer's step, or no operand
 * requiring grad) a float32 `x.add_(y)`, sub_, mul_ or div_ on a contiguous x runs the
 * BinaryInto kernel: x's elements are read and written in place on the SIMD kernels (on the
 * pool when x lives in wasm memory), with no result allocated and copied back. The out-of-place
 * path allocated a fresh 4 MiB result per call on 1M floats and left it to the GC: page faults
 * on memory never touched cost more than the add itself (here 35-70 ms a call, against
 * 0.3-1 ms in place). y must broadcast to x's shape and may not overlap x unless it is x
 * itself. add_ and sub_ with alpha (SGD's `p.add_(d, alpha=-lr)`) run x += alpha y in the
 * same single pass (axpyF32): alpha cast to float32 as PyTorch casts it, alpha y rounded
 * before the add (PyTorch's AVX2 loop fuses the two, one rounding less). Everything else, and every write autograd must record, keeps
 * Note [In-place ops]'s path.
 */
function binaryInPlace(
  kernel: KernelAttrs<'BinaryInto'>['op'],
  x: Tensor,
  other: TensorOrScalar,
  alpha: number | undefined,
): boolean {
  // anything else (a bad argument included) takes the out-of-place path, which names what is wrong
  if (!(x instanceof Tensor) || x.dtype !== 'float32' || !x.isContiguous()) return false;
  if (!(other instanceof Tensor || typeof other === 'number')) return false;
  if (!hasKernel(K.BinaryInto, x.device.type)) return false;
  if (other instanceof Tensor && (other.dtype !== 'float32' || other.device !== x.device)) return false;
  if (other instanceof Tensor && other.storage === x.storage && !sameView(x, other)) return false;
  if (recordsGraph(other instanceof Tensor ? [x, other] : [x])) return false;
  const scale = alpha ?? 1;
  if (other instanceof Tensor && scale !== 1 && (kernel === K.Add || kernel === K.Sub)) {
    // x + alpha y in one pass; x - alpha y is x + (-alpha) y, bit for bit
    checkWritable(x, other.shape);
    runKernel1(K.BinaryInto, [x, other], { op: K.Add, alpha: kernel === K.Sub ? -scale : scale });
    return true;
  }
  let y: Tensor;
  if (other instanceof Tensor) y = scale === 1 ? other : mul(other, scale);
  else y = promoteOperands([x, other * scale])[1]!;
  try {
    checkWritable(x, y.shape);
    runKernel1(K.BinaryInto, [x, y], { op: kernel });
  } finally {
    if (y !== other) y.dispose();
  }
  return true;
}

function sameView(a: Tensor, b: Tensor): boolean {
  return a.offset === b.offset && shapesEqual(a.shape, b.shape) && a.strides.every((s, d) => s === b.strides[d]);
}

export function add_(x: Tensor, other: TensorOrScalar, opts: AlphaOptions = {}): Tensor {
  checkOptions('add', 'opts', opts);
  return binaryInPlace(K.Add, x, other, opts.alpha) ? x : writeInto(x, add(x, other, opts), 'AddBackward0');
}
export function sub_(x: Tensor, other: TensorOrScalar, opts: AlphaOptions = {}): Tensor {
  checkOptions('sub', 'opts', opts);
  return binaryInPlace(K.Sub, x, other, opts.alpha) ? x : writeInto(x, sub(x, other, opts), 'SubBackward0');
}
export const mul_ = (x: Tensor, other: TensorOrScalar): Tensor =>
  binaryInPlace(K.Mul, x, other, undefined) ? x : writeInto(x, mul(x, other), 'MulBackward0');
export const div_ = (x: Tensor, other: TensorOrScalar): Tensor =>
  binaryInPlace(K.Div, x, other, undefined) ? x : writeInto(x, div(x, other), 'DivBackward0');
export const clamp_ = (x: Tensor, min?: number | null, max?: number | null): Tensor =>
  writeInto(x, clamp(x, min, max), 'ClampBackward1');

/** Copies `src` (broadcast to x's shape, any dtype, any device) into x. */
export function copy_(x: Tensor, src: Tensor): Tensor {
  checkTensor('copy_', 'input', x);
  checkTensor('copy_', 'src', src);
  checkWritable(x, src.shape);
  runKernel1(K.CopyInto, [x, moveTo(src, x.device)], { gradFnName: 'CopyBackwards' });
  return x;
}

/** Writes `value` (cast to x's dtype) into every element; like torch, aliased views (expand) may be filled. */
export function fill_(x: Tensor, value: number | boolean): Tensor {
  checkTensor('fill_', 'input', x);
  checkScalar('fill_', 'value', value);
  runKernel1(K.Fill, [x], { value: Number(value), gradFnName: 'FillBackward0' });
  return x;
}

export function zero_(x: Tensor): Tensor {
  checkTensor('zero_', 'input', x);
  return fill_(x, 0);
}
