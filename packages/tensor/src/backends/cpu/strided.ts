/**
 * Strided iteration for cpu kernels. `forEachOffset` walks a shape in row-major order and
 * hands the element offsets of up to three operands (each with its own strides, already
 * broadcast to `shape`) to `fn`. The innermost dim is a tight loop; kernels with a
 * contiguous fast path should check `isContiguousLayout` first and skip this entirely.
 */
export function forEachOffset(
  shape: readonly number[],
  stridesA: readonly number[],
  offsetA: number,
  stridesB: readonly number[] | null,
  offsetB: number,
  fn: (i: number, a: number, b: number) => void,
): void {
  const nd = shape.length;
  let total = 1;
  for (const s of shape) total *= s;
  if (total === 0) return;
  if (nd === 0) {
    fn(0, offsetA, offsetB);
    return;
  }
  const inner = shape[nd - 1]!;
  const sa = stridesA[nd - 1]!;
  const sb = stridesB ? stridesB[nd - 1]! : 0;
  const idx = new Array<number>(nd).fill(0);
  let a = offsetA;
  let b = offsetB;
  for (let i = 0; i < total;) {
    let pa = a;
    let pb = b;
    for (let j = 0; j < inner; j++, i++) {
      fn(i, pa, pb);
      pa += sa;
      pb += sb;
    }
    // carry into the outer dims
    for (let d = nd - 2; d >= 0; d--) {
      idx[d]!++;
      a += stridesA[d]!;
      if (stridesB) b += stridesB[d]!;
      if (idx[d]! < shape[d]!) break;
      a -= stridesA[d]! * shape[d]!;
      if (stridesB) b -= stridesB[d]! * shape[d]!;
      idx[d] = 0;
    }
  }
}

/** True when a layout is the plain row-major one starting at `offset` (a single linear run). */
export function isContiguousLayout(shape: readonly number[], strides: readonly number[]): boolean {
  let expected = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    if (shape[d] !== 1 && strides[d] !== expected) return false;
    expected *= shape[d]!;
  }
  return true;
}
