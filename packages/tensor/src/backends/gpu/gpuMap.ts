import type { DType } from '../../dtype.js';
import { TensorError } from '../../errors.js';
import { broadcastShapes, broadcastStrides, numelOf, shapesEqual } from '../../shape.js';
import type { Tensor } from '../../tensor.js';
import { kernel, launch } from './gpuRuntime.js';
import { assertGpuRank, coordsSource, gpuTensor, offsetSource, valueOf } from './gpuTensor.js';

const ARRAYS = ['a', 'b', 'c'] as const;
const VALUES = ['x', 'y', 'z'] as const;

/**
 * Note [gpu elementwise kernels]
 * Every elementwise kernel of the gpu device is one expression over x, y, z (its operands'
 * values) and p0, p1 (scalar params), compiled once per rank into a gpu.js kernel that maps
 * output element i to its coordinates and each operand's storage index through that
 * operand's offset and (broadcast) strides: broadcasting, views and transposes need no
 * copies. Dims are coalesced first (size-1 dims dropped, neighbours merged where every
 * operand steps through them as one), so a contiguous op indexes in one dim (no divisions),
 * a bias add in two, and only views that really need more than MAX_RANK dims are refused.
 * int32 results are truncated toward zero and bool results are 0/1, as on the cpu.
 */
function source(arity: number, expr: string, rank: number): string {
  const ops = ARRAYS.slice(0, arity);
  // indices go through locals: gpu.js's GLSL output redefines a hoisted name when two reads index by expressions
  const reads = ops.map(
    (arr, k) =>
      `const i${k} = ${offsetSource(rank + k * (rank + 1), undefined, rank)};\nconst ${VALUES[k]} = ${arr}[i${k}];`,
  );
  return `function (meta, p0, p1, ${ops.join(', ')}) {
${coordsSource(0, 'this.thread.x', rank)}
${reads.join('\n')}
return ${expr};
}`;
}

/** The output shape and each operand's strides with size-1 dims dropped and mergeable neighbours merged. */
function coalesce(
  shape: readonly number[],
  strides: readonly (readonly number[])[],
): { shape: number[]; strides: number[][] } {
  const out: number[] = [];
  const outStrides: number[][] = strides.map(() => []);
  for (let d = shape.length - 1; d >= 0; d--) {
    const size = shape[d]!;
    if (size === 1) continue;
    const last = out.length - 1;
    if (last >= 0 && strides.every((st, k) => st[d] === outStrides[k]![last]! * out[last]!)) {
      out[last] = out[last]! * size;
    } else {
      out.push(size);
      strides.forEach((st, k) => outStrides[k]!.push(st[d]!));
    }
  }
  if (out.length === 0) return { shape: [1], strides: strides.map(() => [0]) };
  return { shape: out.reverse(), strides: outStrides.map((st) => st.reverse()) };
}

/** Truncates toward zero (int32 results). */
export const trunc = (v: string): string => `(${v} < 0 ? Math.ceil(${v}) : Math.floor(${v}))`;

/** The expression cast to `dtype`'s values: bool -> 0/1, int32 -> truncated, float32 -> itself. */
export function castExpr(expr: string, dtype: DType): string {
  if (dtype === 'bool') return `((${expr}) !== 0 ? 1 : 0)`;
  if (dtype === 'int32') return trunc(`(${expr})`);
  return expr;
}

export function assertGpuDType(dtype: DType): void {
  if (dtype === 'float64') {
    throw new TensorError(
      'UNSUPPORTED',
      'float64 is not supported on the gpu device (gpu.js computes in float32); use float32',
    );
  }
}

/** Runs the elementwise expression over `inputs` broadcast together into a new gpu tensor of `outDtype`. */
export function gpuMap(
  name: string,
  expr: string,
  inputs: readonly Tensor[],
  outDtype: DType,
  params: readonly number[] = [],
): Tensor {
  assertGpuDType(outDtype);
  let shape = inputs[0]!.shape;
  for (let i = 1; i < inputs.length; i++)
    if (!shapesEqual(inputs[i]!.shape, shape)) shape = broadcastShapes(shape, inputs[i]!.shape);
  const c = coalesce(
    shape,
    inputs.map((t) => (shapesEqual(t.shape, shape) ? t.strides : broadcastStrides(t.shape, t.strides, shape))),
  );
  assertGpuRank(c.shape, 'indexing');
  const rank = c.shape.length;
  const meta = [...c.shape, ...inputs.flatMap((t, k) => [t.offset, ...c.strides[k]!])];
  const k = kernel(`map:${name}:${inputs.length}:${outDtype}:${rank}`, () =>
    source(inputs.length, castExpr(expr, outDtype), rank),
  );
  const n = numelOf(shape);
  const value = launch(k, n, [meta, params[0] ?? 0, params[1] ?? 0, ...inputs.map(valueOf)]);
  return gpuTensor(value, shape, outDtype, inputs[0]!.device);
}
