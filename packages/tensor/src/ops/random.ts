import { CPU } from '../device.js';
import { type DType, typedArrayFor } from '../dtype.js';
import { TensorError } from '../errors.js';
import { numelOf, validateShape } from '../shape.js';
import { Storage } from '../storage.js';
import { Tensor } from '../tensor.js';
import { finish, type TensorOptions } from './creation.js';
import { copy_ } from './inplace.js';

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

/** A uniform double in [0, 1) from 53 random bits. */
function nextDouble(): number {
  return ((nextUint32() >>> 5) * 67108864 + (nextUint32() >>> 6)) / 9007199254740992;
}

function fillWith(shape: readonly number[], dtype: DType, gen: () => number): Tensor {
  validateShape(shape);
  const n = numelOf(shape);
  const data = typedArrayFor(dtype, n);
  for (let i = 0; i < n; i++) data[i] = gen();
  return new Tensor(new Storage(CPU, dtype, n, data), shape);
}

function normalGen(): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const v = spare;
      spare = null;
      return v;
    }
    const u = 1 - nextDouble();
    const r = Math.sqrt(-2 * Math.log(u));
    const theta = 2 * Math.PI * nextDouble();
    spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  };
}

function floatDtype(opts: TensorOptions): DType {
  const dtype = opts.dtype ?? 'float32';
  if (dtype !== 'float32' && dtype !== 'float64') throw new TensorError('DTYPE_MISMATCH', `"uniform/normal" not implemented for dtype ${dtype}`);
  return dtype;
}

export const rand = (shape: readonly number[], opts: TensorOptions = {}): Tensor => finish(fillWith(shape, floatDtype(opts), nextDouble), opts);
export const randn = (shape: readonly number[], opts: TensorOptions = {}): Tensor => finish(fillWith(shape, floatDtype(opts), normalGen()), opts);
export const randLike = (t: Tensor, opts: TensorOptions = {}): Tensor => rand(t.shape, { dtype: t.dtype, device: t.device, ...opts });
export const randnLike = (t: Tensor, opts: TensorOptions = {}): Tensor => randn(t.shape, { dtype: t.dtype, device: t.device, ...opts });

/** Integers uniform in [low, high); int32 unless opts.dtype says otherwise. */
export function randint(low: number, high: number, shape: readonly number[], opts: TensorOptions = {}): Tensor {
  if (!Number.isInteger(low) || !Number.isInteger(high) || high <= low) {
    throw new TensorError('INVALID_ARGUMENT', `random_ expects 'from' to be less than 'to', but got from=${low} >= to=${high}`);
  }
  const span = high - low;
  return finish(fillWith(shape, opts.dtype ?? 'int32', () => low + Math.floor(nextDouble() * span)), opts);
}

export function uniform_(x: Tensor, from = 0, to = 1): Tensor {
  return copy_(x, fillWith(x.shape, floatDtype({ dtype: x.dtype }), () => from + (to - from) * nextDouble()));
}

export function normal_(x: Tensor, mean = 0, std = 1): Tensor {
  const gen = normalGen();
  return copy_(x, fillWith(x.shape, floatDtype({ dtype: x.dtype }), () => mean + std * gen()));
}
