import { Tensor, type TypedArray, add_, div_, noGrad } from '@wiregrad/autograd';

/** torch.distributed.ReduceOp (AVG, NCCL-only in PyTorch 1.13, works everywhere here). */
export const ReduceOp = {
  SUM: 'SUM',
  AVG: 'AVG',
  PRODUCT: 'PRODUCT',
  MIN: 'MIN',
  MAX: 'MAX',
} as const;
export type ReduceOp = (typeof ReduceOp)[keyof typeof ReduceOp];

const OPS = new Set<string>(Object.values(ReduceOp));
export const isReduceOp = (op: unknown): op is ReduceOp => typeof op === 'string' && OPS.has(op);

/**
 * `acc[i] = acc[i] op x[i]`, in place. A typed array rounds every step to its dtype, so a
 * fixed order of operands gives the same bits on every rank (Note [Fixed reduction order]).
 * AVG accumulates as SUM; `finish` divides once at the end. int32 wraps around, as in PyTorch.
 */
export function combine(acc: TypedArray, x: TypedArray, op: ReduceOp): void {
  const n = acc.length;
  switch (op) {
    case 'SUM':
    case 'AVG':
      if (n >= KERNEL_MIN && !(acc instanceof Int32Array)) sumWithKernel(acc, x);
      // one loop per array type: a loop that sees several types runs several times slower
      else if (acc instanceof Float32Array) sumFloat32(acc, x as Float32Array);
      else if (acc instanceof Float64Array) sumFloat64(acc, x as Float64Array);
      else for (let i = 0; i < n; i++) acc[i] = acc[i]! + x[i]!;
      break;
    case 'PRODUCT':
      if (acc instanceof Int32Array) for (let i = 0; i < n; i++) acc[i] = Math.imul(acc[i]!, x[i]!);
      else for (let i = 0; i < n; i++) acc[i] = acc[i]! * x[i]!;
      break;
    case 'MIN':
      for (let i = 0; i < n; i++) if (x[i]! < acc[i]! || Number.isNaN(x[i]!)) acc[i] = x[i]!;
      break;
    case 'MAX':
      for (let i = 0; i < n; i++) if (x[i]! > acc[i]! || Number.isNaN(x[i]!)) acc[i] = x[i]!;
      break;
  }
}

/**
 * AVG's division by the number of ranks, once, after the sum: on the kernels from KERNEL_MIN
 * elements (one IEEE division per element, the loop's bits; a DDP bucket of 7.45 MB spent 2 ms in
 * the loop, 0.3-0.4 ms on the kernel), else the loop.
 */
export function finish(acc: TypedArray, op: ReduceOp, ranks: number): void {
  if (op !== 'AVG') return;
  if (acc.length >= KERNEL_MIN && !(acc instanceof Int32Array)) noGrad(() => div_(kernelView(acc), ranks));
  else for (let i = 0; i < acc.length; i++) acc[i] = acc[i]! / ranks;
}

/** From this many elements a sum runs on the cpu backend's kernels (SIMD where both sides are its memory). */
const KERNEL_MIN = 4096;

/**
 * `acc += x` by the tensor library's add_: in place, on the wasm SIMD kernel where both arrays
 * live in its memory (a tensor's storage, a local pair's block: Note [Local pairs]), 4-5x the
 * JavaScript loop's speed. Each element is one IEEE add rounded to the dtype, as in the loop,
 * so the bits are the same (Note [Fixed reduction order]).
 */
function sumWithKernel(acc: TypedArray, x: TypedArray): void {
  noGrad(() => add_(kernelView(acc), kernelView(x)));
}

/** A 1-d tensor over a float array's memory (no copy where it is the cpu backend's). */
function kernelView(a: TypedArray): Tensor {
  return Tensor.fromTypedArray(a, [a.length], a instanceof Float64Array ? 'float64' : 'float32');
}

function sumFloat32(acc: Float32Array, x: Float32Array): void {
  for (let i = 0; i < acc.length; i++) acc[i] = acc[i]! + x[i]!;
}

function sumFloat64(acc: Float64Array, x: Float64Array): void {
  for (let i = 0; i < acc.length; i++) acc[i] = acc[i]! + x[i]!;
}
