// f32 elementwise kernels over contiguous memory; one operand of a binary op may be a broadcast scalar.
import { erfV, expV, logV } from './simdMath';

// Binary op codes (kept in step with BINARY_OPS in src/backends/cpu/wasm/wasmElementwise.ts).
const ADD = 0, SUB = 1, MUL = 2, DIV = 3, MAX = 4, MIN = 5, THRESHOLD_BACKWARD = 6;
// Unary op codes (kept in step with UNARY_OPS there).
const NEG = 0, ABS = 1, SQRT = 2, RELU = 3, EXP = 4, LOG = 5, SIGMOID = 6, SILU = 7, GELU = 8;

@inline function binary(op: i32, x: v128, y: v128): v128 {
  if (op == ADD) return f32x4.add(x, y);
  if (op == SUB) return f32x4.sub(x, y);
  if (op == MUL) return f32x4.mul(x, y);
  if (op == DIV) return f32x4.div(x, y);
  if (op == MAX) return f32x4.max(x, y);
  if (op == MIN) return f32x4.min(x, y);
  // x is the gradient, y ReLU's output: 0 where y <= 0 (NaN in y keeps x), as PyTorch's threshold_backward
  return v128.bitselect(f32x4.splat(0), x, f32x4.le(y, f32x4.splat(0)));
}

@inline function unary(op: i32, x: v128): v128 {
  if (op == NEG) return f32x4.neg(x);
  if (op == ABS) return f32x4.abs(x);
  if (op == SQRT) return f32x4.sqrt(x);
  // relu keeps NaN and -0 like `x < 0 ? 0 : x`
  if (op == RELU) return v128.bitselect(f32x4.splat(0), x, f32x4.lt(x, f32x4.splat(0)));
  if (op == EXP) return expV(x);
  if (op == LOG) return logV(x);
  // exact GELU, torch's default: 0.5 x (1 + erf(x / sqrt 2)) (Note [Vector erf])
  if (op == GELU) {
    const e = erfV(f32x4.mul(x, f32x4.splat(0.7071067811865476)));
    return f32x4.mul(f32x4.mul(x, f32x4.splat(0.5)), f32x4.add(f32x4.splat(1), e));
  }
  const s = f32x4.div(f32x4.splat(1), f32x4.add(f32x4.splat(1), expV(f32x4.neg(x))));
  return op == SIGMOID ? s : f32x4.mul(x, s);
}

/**
 * mode 0: a and b are vectors; 1: b is a scalar; 2: a is a scalar. Writes n results at out.
 * The tail (n % 4) runs on a padded vector: the caller's buffers have room for it.
 */
@inline function binaryLoop(op: i32, mode: i32, a: usize, b: usize, out: usize, n: i32): void {
  const sa = mode == 2 ? v128.load32_splat(a) : f32x4.splat(0);
  const sb = mode == 1 ? v128.load32_splat(b) : f32x4.splat(0);
  const end = out + (<usize>n << 2);
  // four vectors a turn: loads of the next ones overlap the last ones' stores
  while (out + 64 <= end) {
    const x0 = mode == 2 ? sa : v128.load(a);
    const x1 = mode == 2 ? sa : v128.load(a, 16);
    const x2 = mode == 2 ? sa : v128.load(a, 32);
    const x3 = mode == 2 ? sa : v128.load(a, 48);
    const y0 = mode == 1 ? sb : v128.load(b);
    const y1 = mode == 1 ? sb : v128.load(b, 16);
    const y2 = mode == 1 ? sb : v128.load(b, 32);
    const y3 = mode == 1 ? sb : v128.load(b, 48);
    v128.store(out, binary(op, x0, y0));
    v128.store(out, binary(op, x1, y1), 16);
    v128.store(out, binary(op, x2, y2), 32);
    v128.store(out, binary(op, x3, y3), 48);
    a += 64;
    b += 64;
    out += 64;
  }
  while (out < end) {
    const x = mode == 2 ? sa : v128.load(a);
    const y = mode == 1 ? sb : v128.load(b);
    v128.store(out, binary(op, x, y));
    a += 16;
    b += 16;
    out += 16;
  }
}

/**
 * mode 3: b is one row of `cols` floats broadcast over the n / cols rows of a; mode 4: a is
 * the row. Row tails run scalar, so no row writes past its end into the next one.
 */
@inline function rowLoop(op: i32, mode: i32, a: usize, b: usize, out: usize, n: i32, cols: i32): void {
  const row = mode == 3 ? b : a;
  const vecEnd = cols & ~3;
  for (let r = 0; r < n; r += cols) {
    const full = (mode == 3 ? a : b) + (<usize>r << 2);
    const dst = out + (<usize>r << 2);
    let j = 0;
    for (; j < vecEnd; j += 4) {
      const off = <usize>j << 2;
      const f = v128.load(full + off);
      const w = v128.load(row + off);
      v128.store(dst + off, mode == 3 ? binary(op, f, w) : binary(op, w, f));
    }
    for (; j < cols; j++) {
      const off = <usize>j << 2;
      const f = v128.load32_splat(full + off);
      const w = v128.load32_splat(row + off);
      store<f32>(dst + off, f32x4.extract_lane(mode == 3 ? binary(op, f, w) : binary(op, w, f), 0));
    }
  }
}

@inline function binaryModes(op: i32, mode: i32, a: usize, b: usize, out: usize, n: i32, cols: i32): void {
  if (mode == 0) binaryLoop(op, 0, a, b, out, n);
  else if (mode == 1) binaryLoop(op, 1, a, b, out, n);
  else if (mode == 2) binaryLoop(op, 2, a, b, out, n);
  else if (mode == 3) rowLoop(op, 3, a, b, out, n, cols);
  else rowLoop(op, 4, a, b, out, n, cols);
}

/** out[i] = a[i] op b[i] over n floats (modes: binaryLoop, rowLoop); buffers are padded to 16 bytes. */
export function binaryF32(op: i32, mode: i32, a: usize, b: usize, out: usize, n: i32, cols: i32): void {
  switch (op) {
    case ADD: binaryModes(ADD, mode, a, b, out, n, cols); break;
    case SUB: binaryModes(SUB, mode, a, b, out, n, cols); break;
    case MUL: binaryModes(MUL, mode, a, b, out, n, cols); break;
    case DIV: binaryModes(DIV, mode, a, b, out, n, cols); break;
    case MAX: binaryModes(MAX, mode, a, b, out, n, cols); break;
    case MIN: binaryModes(MIN, mode, a, b, out, n, cols); break;
    default: binaryModes(THRESHOLD_BACKWARD, mode, a, b, out, n, cols); break;
  }
}

/**
 * x[i] += alpha * y[i] over n floats (n a multiple of 4; the caller runs the tail), in place:
 * PyTorch's `x.add_(y, alpha=alpha)` in one pass, as SGD's update is (Note [In-place fast path]).
 * alpha * y is rounded before the add, as the TypeScript loop computes it.
 */
export function axpyF32(x: usize, y: usize, n: i32, alpha: f32): void {
  const a = f32x4.splat(alpha);
  const end = x + (<usize>n << 2);
  while (x + 64 <= end) {
    const y0 = f32x4.mul(a, v128.load(y)), y1 = f32x4.mul(a, v128.load(y, 16));
    const y2 = f32x4.mul(a, v128.load(y, 32)), y3 = f32x4.mul(a, v128.load(y, 48));
    v128.store(x, f32x4.add(v128.load(x), y0));
    v128.store(x, f32x4.add(v128.load(x, 16), y1), 16);
    v128.store(x, f32x4.add(v128.load(x, 32), y2), 32);
    v128.store(x, f32x4.add(v128.load(x, 48), y3), 48);
    x += 64;
    y += 64;
  }
  while (x < end) {
    v128.store(x, f32x4.add(v128.load(x), f32x4.mul(a, v128.load(y))));
    x += 16;
    y += 16;
  }
}

@inline function unaryLoop(op: i32, x: usize, out: usize, n: i32): void {
  const end = out + (<usize>n << 2);
  // two vectors a turn: the costly ops (exp's polynomial) share their constants' registers
  while (out + 32 <= end) {
    const y0 = unary(op, v128.load(x));
    const y1 = unary(op, v128.load(x, 16));
    v128.store(out, y0);
    v128.store(out, y1, 16);
    x += 32;
    out += 32;
  }
  while (out < end) {
    v128.store(out, unary(op, v128.load(x)));
    x += 16;
    out += 16;
  }
}

/** out[i] = op(x[i]) over n floats; buffers are padded to 16 bytes. */
export function unaryF32(op: i32, x: usize, out: usize, n: i32): void {
  switch (op) {
    case NEG: unaryLoop(NEG, x, out, n); break;
    case ABS: unaryLoop(ABS, x, out, n); break;
    case SQRT: unaryLoop(SQRT, x, out, n); break;
    case RELU: unaryLoop(RELU, x, out, n); break;
    case EXP: unaryLoop(EXP, x, out, n); break;
    case LOG: unaryLoop(LOG, x, out, n); break;
    case SIGMOID: unaryLoop(SIGMOID, x, out, n); break;
    case GELU: unaryLoop(GELU, x, out, n); break;
    default: unaryLoop(SILU, x, out, n); break;
  }
}

/**
 * Note [Claimed chunks]
 * A unary op split over the pool as equal ranges waits for its slowest thread, and on a
 * loaded machine a thread may lose its core for milliseconds mid-range. Instead every
 * thread runs this same task: it claims the next `chunk` elements with an atomic add on
 * the shared counter at `next` (zero at the start) until none are left, so a thread that
 * stalls holds up at most one chunk and the others take the rest. Each element's result
 * does not depend on which thread computed it. `chunk` is a multiple of 16, so only the
 * last chunk's padded SIMD tail goes past its end, into the region's padding.
 */
export function unaryF32Chunks(op: i32, x: usize, out: usize, n: i32, next: usize, chunk: i32): void {
  for (;;) {
    const start = atomic.add<i32>(next, chunk);
    if (start >= n) return;
    const off = <usize>start << 2;
    unaryF32(op, x + off, out + off, min(chunk, n - start));
  }
}
