import type { DType } from '../dtype.js';
import { TensorError } from '../errors.js';
import { validateShape } from '../shape.js';
import { Tensor } from '../tensor.js';
import { type ShapeAndOptions, finish, shapeAndOptions, type TensorOptions } from './creation.js';
import { Xoshiro128StarStar } from './generator.js';
import { copy_ } from './inplace.js';
import { TORCH_TYPE_NAME } from './operands.js';
import { checkInt, checkNumber, checkOptions, checkTensor } from '../validate.js';

let generator = Xoshiro128StarStar.fromSeed(Date.now());

/** Reseeds the global generator: every later rand/randn/randint/uniform_/normal_ call is reproducible. See Note [Generator]. */
export function manualSeed(seed: number): void {
  if (!Number.isFinite(seed))
    throw new TensorError('INVALID_ARGUMENT', `manualSeed expects a finite number, got ${seed}`);
  generator = Xoshiro128StarStar.fromSeed(Math.trunc(seed));
}

/** PyTorch's torch.get_rng_state: the global generator's state (four uint32 words), for setRngState. */
export function getRngState(): number[] {
  return generator.state;
}

/** PyTorch's torch.set_rng_state: later random draws continue from `state` (from getRngState). */
export function setRngState(state: readonly number[]): void {
  if (
    state.length !== 4 ||
    !state.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffffffff) ||
    state.every((w) => w === 0)
  ) {
    throw new TensorError(
      'INVALID_ARGUMENT',
      `setRngState expects the four uint32 words getRngState returns (not all zero), got [${state.join(', ')}]`,
    );
  }
  generator = new Xoshiro128StarStar(state);
}

/** A uniform value in [0, 1) that stays below 1 once stored as `dtype`. */
function uniformFor(dtype: DType): () => number {
  return dtype === 'float32' ? () => generator.nextFloat32() : () => generator.nextFloat64();
}

/** A fresh tensor of generated values; its memory comes from the allocator (Note [Storages in wasm memory]). */
function fillWith(shape: readonly number[], dtype: DType, gen: () => number): Tensor {
  validateShape(shape);
  const t = Tensor.uninitialized(shape, dtype);
  const data = t.storage.data;
  for (let i = 0; i < data.length; i++) data[i] = gen();
  return t;
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
  if (dtype !== 'float32' && dtype !== 'float64')
    throw new TensorError('DTYPE_MISMATCH', `"${kernel}" not implemented for '${TORCH_TYPE_NAME[dtype]}'`);
  return dtype;
}

/** Uniform values in [0, 1): `rand([2, 3], opts)` or `rand(2, 3, opts)`. */
export function rand(...args: ShapeAndOptions): Tensor {
  const [shape, opts] = shapeAndOptions('rand', args);
  const dtype = floatDtype(opts.dtype ?? 'float32', 'check_uniform_bounds');
  return finish(fillWith(shape, dtype, uniformFor(dtype)), opts);
}
/** Standard normal values: `randn([2, 3], opts)` or `randn(2, 3, opts)`. */
export function randn(...args: ShapeAndOptions): Tensor {
  const [shape, opts] = shapeAndOptions('randn', args);
  return finish(fillWith(shape, floatDtype(opts.dtype ?? 'float32', 'normal_kernel_cpu'), normalGen()), opts);
}
export function randLike(t: Tensor, opts: TensorOptions = {}): Tensor {
  checkTensor('randLike', 'input', t);
  checkOptions('randLike', 'opts', opts);
  return rand(t.shape, { dtype: t.dtype, device: t.device, ...opts });
}
export function randnLike(t: Tensor, opts: TensorOptions = {}): Tensor {
  checkTensor('randnLike', 'input', t);
  checkOptions('randnLike', 'opts', opts);
  return randn(t.shape, { dtype: t.dtype, device: t.device, ...opts });
}

/** Integers uniform in [low, high): `randint(low, high, shape)` or `randint(high, shape)`; int32 unless opts.dtype says otherwise. */
export function randint(
  lowOrHigh: number,
  highOrShape: number | readonly number[],
  shapeOrOpts?: readonly number[] | TensorOptions,
  options: TensorOptions = {},
): Tensor {
  const [low, high, shape, opts] =
    typeof highOrShape === 'number'
      ? [lowOrHigh, highOrShape, shapeOrOpts as readonly number[], options]
      : [0, lowOrHigh, highOrShape, (shapeOrOpts as TensorOptions | undefined) ?? {}];
  checkInt('randint', 'low', low);
  checkInt('randint', 'high', high);
  checkOptions('randint', 'opts', opts);
  if (high <= low)
    throw new TensorError(
      'INVALID_ARGUMENT',
      `random_ expects 'from' to be less than 'to', but got from=${low} >= to=${high}`,
    );
  const uniform = uniformFor('float64');
  const span = high - low;
  return finish(
    fillWith(shape, opts.dtype ?? 'int32', () => low + Math.floor(uniform() * span)),
    opts,
  );
}

/** Fills x in place with values uniform in [from, to) (through the CopyInto kernel, so the version is bumped). */
export function uniform_(x: Tensor, from = 0, to = 1): Tensor {
  checkTensor('uniform_', 'input', x);
  checkNumber('uniform_', 'from', from);
  checkNumber('uniform_', 'to', to);
  if (from > to)
    throw new TensorError(
      'INVALID_ARGUMENT',
      `uniform_ expects to return a [from, to) range, but found from=${from} > to=${to}`,
    );
  const uniform = uniformFor(floatDtype(x.dtype, 'check_uniform_bounds'));
  return copy_(
    x,
    fillWith(x.shape, x.dtype, () => from + (to - from) * uniform()),
  );
}

/** Fills x in place with normal values of the given mean and std. */
export function normal_(x: Tensor, mean = 0, std = 1): Tensor {
  checkTensor('normal_', 'input', x);
  checkNumber('normal_', 'mean', mean);
  checkNumber('normal_', 'std', std);
  if (!(std >= 0)) throw new TensorError('INVALID_ARGUMENT', `normal expects std >= 0.0, but found std ${std}`);
  const gen = normalGen();
  return copy_(
    x,
    fillWith(x.shape, floatDtype(x.dtype, 'normal_kernel_cpu'), () => mean + std * gen()),
  );
}
