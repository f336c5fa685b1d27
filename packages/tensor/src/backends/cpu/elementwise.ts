import type { TypedArray } from '../../dtype.js';

/** One operand of an elementwise loop: its data and its strides already broadcast to the output shape. */
export interface Operand {
  data: TypedArray;
  offset: number;
  strides: readonly number[];
}

export type ElementwiseLoop = (
  operands: readonly Operand[],
  out: TypedArray,
  shape: readonly number[],
  params: readonly number[],
) => void;

const VALUES = ['x', 'y', 'z'] as const;
const ARRAYS = ['a', 'b', 'c'] as const;

/**
 * Note [Generated elementwise loops]
 * Each elementwise kernel is one expression over `x`, `y`, `z` (the operands' values) and
 * `p0, p1...` (scalar params such as clamp bounds). We compile it once into a loop with two
 * paths: a flat loop when every operand is contiguous over the whole output (the common
 * case: same shapes), and a strided loop whose innermost dim is a tight loop with per-operand
 * strides (stride 0 for broadcast dims, so row and column broadcasts, transposes and slices
 * all take it without copying). Binary loops also get a path with one operand a broadcast
 * scalar, hoisted out of the loop. Compiling per expression keeps V8's loops
 * monomorphic, where a shared loop calling a closure per element would not be; kernels
 * compile one loop per dtype (Note [Compiled loop cache]).
 */
export function compileElementwise(
  arity: 1 | 2 | 3,
  expr: string,
  helpers: Record<string, unknown> = {},
): ElementwiseLoop {
  const names = Object.keys(helpers);
  const arrays = ARRAYS.slice(0, arity);
  const reads = (idx: (k: number) => string) =>
    arrays.map((arr, k) => `const ${VALUES[k]} = ${arr}[${idx(k)}];`).join(' ');
  const body = `
    const nd = shape.length;
    let n = 1; for (let d = 0; d < nd; d++) n *= shape[d];
    if (n === 0) return;
    const p0 = params[0], p1 = params[1];
    ${arrays.map((arr, k) => `const ${arr} = ops[${k}].data, ${arr}o = ops[${k}].offset, ${arr}s = ops[${k}].strides;`).join('\n')}
    let flat = true;
    ${arrays.map((arr) => `if (!isFlat(${arr}s, shape)) flat = false;`).join('\n')}
    if (flat) {
      if (${arrays.map((arr) => `${arr}o === 0`).join(' && ')}) {
        for (let i = 0; i < n; i++) { ${reads(() => 'i')} out[i] = ${expr}; }
      } else {
        for (let i = 0; i < n; i++) { ${reads((k) => `${arrays[k]}o + i`)} out[i] = ${expr}; }
      }
      return;
    }${
      arity === 2
        ? `
    if (isFlat(as, shape) && isScalar(bs)) {
      const y = b[bo];
      for (let i = 0; i < n; i++) { const x = a[ao + i]; out[i] = ${expr}; }
      return;
    }
    if (isScalar(as) && isFlat(bs, shape)) {
      const x = a[ao];
      for (let i = 0; i < n; i++) { const y = b[bo + i]; out[i] = ${expr}; }
      return;
    }`
        : ''
    }
    if (nd === 0) { ${reads((k) => `${arrays[k]}o`)} out[0] = ${expr}; return; }
    const inner = shape[nd - 1];
    ${arrays.map((arr) => `const ${arr}i = ${arr}s[nd - 1]; let ${arr}p = ${arr}o;`).join('\n')}
    const idx = new Array(nd).fill(0);
    const unit = ${arrays.map((arr) => `${arr}i === 1`).join(' && ')};
    for (let o = 0; o < n; ) {
      if (unit) {
        // every operand walks its row with stride 1 (row broadcasts, slices): index it directly
        for (let j = 0; j < inner; j++) {
          ${reads((k) => `${arrays[k]}p + j`)}
          out[o + j] = ${expr};
        }
        o += inner;
      } else {
        ${arrays.map((arr) => `let ${arr}q = ${arr}p;`).join(' ')}
        for (let j = 0; j < inner; j++, o++) {
          ${reads((k) => `${arrays[k]}q`)}
          out[o] = ${expr};
          ${arrays.map((arr) => `${arr}q += ${arr}i;`).join(' ')}
        }
      }
      for (let d = nd - 2; d >= 0; d--) {
        idx[d]++;
        ${arrays.map((arr) => `${arr}p += ${arr}s[d];`).join(' ')}
        if (idx[d] < shape[d]) break;
        ${arrays.map((arr) => `${arr}p -= ${arr}s[d] * shape[d];`).join(' ')}
        idx[d] = 0;
      }
    }`;
  const factory = new Function(
    'isFlat',
    'isScalar',
    ...names,
    `return function loop(ops, out, shape, params) {${body}\n};`,
  ) as (...args: unknown[]) => ElementwiseLoop;
  return factory(isFlat, isScalar, ...names.map((k) => helpers[k]));
}

/** True when strides are the row-major strides of `shape` (size-1 dims may have any stride). */
function isFlat(strides: readonly number[], shape: readonly number[]): boolean {
  let expected = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    const s = shape[d]!;
    if (s !== 1 && strides[d] !== expected) return false;
    expected *= s;
  }
  return true;
}

/** True when every stride is 0: one value broadcast over the whole output. */
function isScalar(strides: readonly number[]): boolean {
  for (const s of strides) if (s !== 0) return false;
  return true;
}
