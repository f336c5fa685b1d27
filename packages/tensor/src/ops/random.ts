import { type DType, typedArrayFor } from '../dtype.js';
import { TensorError } from '../errors.js';
import { numelOf, validateShape } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { finish, fromData, type TensorOptions } from './creation.js';
import { copy_ } from './inplace.js';
import { TORCH_TYPE_NAME } from './operands.js';

/**
 * Note [Generator]
 * One global xoshiro128** generator (32-bit state words, so exact in JS integers), seeded by
 * splitmix32 from `manualSeed`. The same seed gives the same stream on every platform;
 * normals use Box–Muller on pairs of uniforms.
 */
const state = new Uint32Array(4);

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function manualSeed(seed: number): void {
  if (!Number.isFinite(seed)) throw new TensorError('INVALID_ARGUMENT', `manualSeed expects a finite number, got ${seed}`);
  const next = splitmix32(Math.trunc(seed));
  for (let i = 0; i < 4; i++) state[i] = next();
}
manualSeed(Date.now() ^ (Math.random() * 0x7fffffff));

function nextUint32(): number {
  const s0 = state[0]!, s1 = state[1]!, s2 = state[2]!, s3 = state[3]!;
  const r = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
  const t = (s1 << 9) >>> 0;
  state[2] = s2 ^ s0;
  state[3] = s3 ^ s1;
  state[1] = s1 ^ state[2]!;
  state[0] = s0 ^ state[3]!;
  state[2] = state[2]! ^ t;
  state[3] = rotl(state[3]!, 11);
  return r;
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** A uniform value in [0, 1) exact in `dtype`: 24 random bits for float32 (53 would round up to 1), 53 for float64. */
function uniformFor(dtype: DType): () => number {
  return dtype === 'float32' ? () => (nextUint32() >>> 8) / 16777216 : () => ((nextUint32() >>> 5) * 67108864 + (nextUint32() >>> 6)) / 9007199254740992;
}

function fillWith(shape: readonly number[], dtype: DType, gen: () => number): Tensor {
  validateShape(shape);
  const n = numelOf(shape);
  const data = typedArrayFor(dtype, n);
  for (let i = 0; i < n; i++) data[i] = gen();
  return fromData(data, shape, dtype);
}

/** Standard normals by Box–Muller: each pair of uniforms gives two values (cos, then sin). */
function normalGen(): () => number {
  const uniform = uniformFor('float64');
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const v = spare;
      spare = null;
      return v;
    }
    const r = Math.sqrt(-2 * Math.log(1 - uniform()));
    const theta = 2 * Math.PI * uniform();
    spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  };
}

/** rand/randn and uniform_/normal_ make floating point values only; torch names the kernel that refuses. */
function floatDtype(dtype: DType, kernel: string): DType {
  if (dtype !== 'float32' && dtype !== 'float64') throw new TensorError('DTYPE_MISMATCH', `"${kernel}" not implemented for '${TORCH_TYPE_NAME[dtype]}'`);
  return dtype;
}

export function rand(shape: readonly number[], opts: TensorOptions = {}): Tensor {
  const dtype = floatDtype(opts.dtype ?? 'float32', 'check_uniform_bounds');
  return finish(fillWith(shape, dtype, uniformFor(dtype)), opts);
}
export function randn(shape: readonly number[], opts: TensorOptions = {}): Tensor {
  return finish(fillWith(shape, floatDtype(opts.dtype ?? 'float32', 'normal_kernel_cpu'), normalGen()), opts);
}
export const randLike = (t: Tensor, opts: TensorOptions = {}): Tensor => rand(t.shape, { dtype: t.dtype, device: t.device, ...opts });
export const randnLike = (t: Tensor, opts: TensorOptions = {}): Tensor => randn(t.shape, { dtype: t.dtype, device: t.device, ...opts });

/** Integers uniform in [low, high): `randint(low, high, shape)` or `randint(high, shape)`; int32 unless opts.dtype says otherwise. */
export function randint(lowOrHigh: number, highOrShape: number | readonly number[], shapeOrOpts?: readonly number[] | TensorOptions, options: TensorOptions = {}): Tensor {
  const [low, high, shape, opts] =
    typeof highOrShape === 'number'
      ? [lowOrHigh, highOrShape, shapeOrOpts as readonly number[], options]
      : [0, lowOrHigh, highOrShape, (shapeOrOpts as TensorOptions | undefined) ?? {}];
  if (!Number.isInteger(low) || !Number.isInteger(high)) throw new TensorError('INVALID_ARGUMENT', `randint expects integer bounds, got low=${low}, high=${high}`);
  if (high <= low) throw new TensorError('INVALID_ARGUMENT', `random_ expects 'from' to be less than 'to', but got from=${low} >= to=${high}`);
  const uniform = uniformFor('float64');
  const span = high - low;
  return finish(fillWith(shape, opts.dtype ?? 'int32', () => low + Math.floor(uniform() * span)), opts);
}

/** Fills x in place with values uniform in [from, to) (through the CopyInto kernel, so the version is bumped). */
export function uniform_(x: Tensor, from = 0, to = 1): Tensor {
  if (from > to) throw new TensorError('INVALID_ARGUMENT', `uniform_ expects to return a [from, to) range, but found from=${from} > to=${to}`);
  const uniform = uniformFor(floatDtype(x.dtype, 'check_uniform_bounds'));
  return copy_(x, fillWith(x.shape, x.dtype, () => from + (to - from) * uniform()));
}

/** Fills x in place with normal values of the given mean and std. */
export function normal_(x: Tensor, mean = 0, std = 1): Tensor {
  if (!(std >= 0)) throw new TensorError('INVALID_ARGUMENT', `normal expects std >= 0.0, but found std ${std}`);
  const gen = normalGen();
  return copy_(x, fillWith(x.shape, floatDtype(x.dtype, 'normal_kernel_cpu'), () => mean + std * gen()));
}
