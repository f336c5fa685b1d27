import { TensorError, fmtShape } from './errors.js';

export function numelOf(shape: readonly number[]): number {
  let n = 1;
  for (const s of shape) n *= s;
  return n;
}

export function contiguousStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let acc = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = acc;
    acc *= shape[d]!;
  }
  return strides;
}

/** Throws unless every size is a non-negative integer (NaN, -1, 2.5 are rejected). */
export function validateShape(shape: readonly number[], what = 'shape'): void {
  if (!Array.isArray(shape))
    throw new TensorError('INVALID_SHAPE', `${what} must be an array of sizes, got ${typeof shape}`);
  for (const s of shape) {
    if (typeof s !== 'number' || !Number.isInteger(s) || s < 0) {
      throw new TensorError(
        'INVALID_SHAPE',
        `Trying to create tensor with invalid ${what} ${fmtShape(shape)}: sizes must be non-negative integers`,
      );
    }
  }
}

/** PyTorch's wrap_dim: `dim` in [-ndim, ndim) (a 0-dim tensor accepts -1 and 0). */
export function normalizeDim(dim: number, ndim: number): number {
  const n = Math.max(ndim, 1);
  if (!Number.isInteger(dim) || dim < -n || dim >= n) {
    throw new TensorError(
      'INVALID_DIM',
      `Dimension out of range (expected to be in range of [${-n}, ${n - 1}], but got ${typeof dim === 'number' ? dim : typeof dim})`,
    );
  }
  return dim < 0 ? dim + n : dim;
}

/** Normalized, sorted, duplicate-checked dims; `undefined` means every dim. */
export function normalizeDims(dims: number | readonly number[] | undefined, ndim: number): number[] {
  if (dims === undefined) return Array.from({ length: ndim }, (_, i) => i);
  const list = typeof dims === 'number' ? [dims] : dims;
  const out = list.map((d) => normalizeDim(d, ndim));
  const seen = new Set<number>();
  for (const d of out) {
    if (seen.has(d)) throw new TensorError('INVALID_DIM', `dim ${d} appears multiple times in the list of dims`);
    seen.add(d);
  }
  return out.sort((a, b) => a - b);
}

/** NumPy broadcasting of two shapes, with PyTorch's message on mismatch. */
export function broadcastShapes(a: readonly number[], b: readonly number[]): number[] {
  const n = Math.max(a.length, b.length);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const da = a[a.length - n + i] ?? 1;
    const db = b[b.length - n + i] ?? 1;
    if (da !== db && da !== 1 && db !== 1) {
      throw new TensorError(
        'BROADCAST',
        `The size of tensor a (${da}) must match the size of tensor b (${db}) at non-singleton dimension ${i}`,
      );
    }
    out[i] = da === 1 ? db : da;
  }
  return out;
}

export function broadcastAll(shapes: readonly (readonly number[])[]): number[] {
  return shapes.reduce<number[]>((acc, s) => broadcastShapes(acc, s), []);
}

/**
 * Strides that read a tensor of `shape`/`strides` as if expanded to `target` (stride 0 on
 * broadcast dims). The caller has checked that the shapes broadcast.
 */
export function broadcastStrides(
  shape: readonly number[],
  strides: readonly number[],
  target: readonly number[],
): number[] {
  const out = new Array<number>(target.length).fill(0);
  const lead = target.length - shape.length;
  for (let i = 0; i < shape.length; i++) out[lead + i] = shape[i] === 1 ? 0 : strides[i]!;
  return out;
}

export function shapesEqual(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/**
 * The strides that let a tensor of `shape`/`strides` be viewed as `newShape` without a copy,
 * or null when none exist (PyTorch's computeStride).
 */
export function viewStrides(
  shape: readonly number[],
  strides: readonly number[],
  newShape: readonly number[],
): number[] | null {
  const numel = numelOf(shape);
  if (numel === 0 || shape.length === 0) return contiguousStrides(newShape);
  const out = new Array<number>(newShape.length);
  let viewD = newShape.length - 1;
  let chunkBase = strides[strides.length - 1]!;
  let tensorNumel = 1;
  let viewNumel = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    tensorNumel *= shape[d]!;
    if (d === 0 || (shape[d - 1] !== 1 && strides[d - 1] !== tensorNumel * chunkBase)) {
      while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] === 1)) {
        out[viewD] = viewNumel * chunkBase;
        viewNumel *= newShape[viewD]!;
        viewD--;
      }
      if (viewNumel !== tensorNumel) return null;
      if (d > 0) {
        chunkBase = strides[d - 1]!;
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  return viewD === -1 ? out : null;
}

/**
 * The sizes or strides of a tensor whose rank a kernel's spec fixes (Im2Col's [N, C, H, W],
 * Col2Im's and BatchMatMul's [B, rows, cols]) as a tuple: checked, where a cast would only claim
 * it (Note [Kernel specs]). An op passes tensors of that rank; anything else is an op's bug.
 */
export function dims3(dims: readonly number[], what: string): [number, number, number] {
  const [a, b, c] = dims;
  if (dims.length !== 3 || a === undefined || b === undefined || c === undefined) throw wrongRank(dims, 3, what);
  return [a, b, c];
}

/** As dims3, for four. */
export function dims4(dims: readonly number[], what: string): [number, number, number, number] {
  const [a, b, c, d] = dims;
  if (dims.length !== 4 || a === undefined || b === undefined || c === undefined || d === undefined)
    throw wrongRank(dims, 4, what);
  return [a, b, c, d];
}

function wrongRank(dims: readonly number[], rank: number, what: string): TensorError {
  return new TensorError('INVALID_SHAPE', `${what} expects ${rank} dims, got ${fmtShape(dims)}`);
}
