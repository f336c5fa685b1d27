import type { Device } from '../../../device.js';
import type { DType } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig, KernelConfigOf } from '../../../kernelRegistry.js';
import { type BinaryKernelName, type KernelName, type UnaryKernelName, kernelEntries } from '../../../kernelSpecs.js';
import { COMPARE } from '../../cpu/kernels/binary.js';
import { Tensor, unscoped } from '../../../tensor.js';
import { gpuMap, trunc } from '../gpuMap.js';

const FLT_MAX = 3.4028234663852886e38;

/**
 * Note [gpu special values]
 * GLSL leaves pow(x, y) undefined for x < 0 or x = 0, y <= 0 (Mesa: NaN for (-3)^2;
 * SwiftShader: |x|^y for (-3.5)^3.5), and its max/min, comparisons and exp may drop NaN
 * (Mesa: relu(NaN) = 0, max(NaN, 1) = 1; SwiftShader: exp(NaN) = inf, so sigmoid(NaN) = 0).
 * The expressions below spell out what the cpu computes (JS Math semantics: integer powers of
 * negatives keep their sign, other powers of negatives are NaN, NaN propagates) so every
 * gpu.js mode agrees with the cpu: every unary op but sign (0 for NaN on the cpu) returns a
 * NaN input as it is, and pow and the logs of negatives read their NaN from a one-element texture (a NaN computed in the
 * shader, like 0 / (x - x), is folded away: SwiftShader gave 0). `v !== v` is the NaN test
 * (no isnan in GLSL ES 1). sin and cos are not left to the driver either (SwiftShader's are
 * off by ~1e-4): see Note [gpu sin and cos].
 */
// z: a NaN
const POW =
  'y === 0 ? 1 : ((x !== x || y !== y) ? x + y : (x < 0 ? (Math.floor(y) === y ? (Math.floor(y * 0.5) * 2 === y ? 1 : -1) * Math.pow(-x, y) : z) : (x === 0 ? (y < 0 ? 1 / Math.abs(x) : 0) : Math.pow(x, y))))';

let nanTensor: Tensor | null = null;
/**
 * A 0-dim float32 NaN on the gpu (a third pow operand, broadcast), made once and kept: outside
 * every scope, so that neither the tidy() nor the backward pass (Note [Gradients the engine
 * owns]) of the first pow disposes it, as the interned scalars of Note [Wrapped scalars].
 */
function gpuNaN(device: Device): Tensor {
  if (!nanTensor || nanTensor.isDisposed)
    nanTensor = unscoped(() => Tensor.fromTypedArray(Float32Array.of(Number.NaN), [], 'float32').to(device));
  return nanTensor;
}

/**
 * Note [gpu sin and cos]
 * sin and cos as the cpu computes them, to float32 rounding, whatever the GL driver's built-ins
 * do: x = k pi/2 + r with |r| <= pi/4 (pi/2 split in three parts, Cody-Waite, so k pi/2 is
 * exact for |k| < 2^16), then Taylor polynomials of sin r and cos r to r^9 and r^10 (error
 * below 2e-9 there), picked and signed by the quadrant k mod 4 (cos x = sin(x + pi/2): the
 * quadrant plus one). Beyond |x| ~ 1e5 the reduction loses bits, as a float32 one does.
 */
function sinExpr(quarterTurns: 0 | 1): string {
  const k = 'Math.floor(x * 0.6366197723675814 + 0.5)';
  const r = `(((x - ${k} * 1.5703125) - ${k} * 0.0004837512969970703) - ${k} * 7.549789954891882e-8)`;
  const r2 = `(${r} * ${r})`;
  const horner = (coefs: number[]) => coefs.map(String).reduceRight((acc, c) => `(${c} + ${r2} * ${acc})`);
  const sinR = `${r} * ${horner([1, -1 / 6, 1 / 120, -1 / 5040, 1 / 362880])}`;
  const cosR = horner([1, -0.5, 1 / 24, -1 / 720, 1 / 40320, -1 / 3628800]);
  const q = `((${k} + ${quarterTurns}) - Math.floor((${k} + ${quarterTurns}) * 0.25) * 4)`;
  return `(Math.abs(${q} - 2) === 1 ? ${cosR} : ${sinR}) * (${q} > 1.5 ? -1 : 1)`;
}

/** Binary arithmetic per dtype (x op y); int32 division truncates like the cpu kernel. */
const ARITH = {
  [K.Add]: () => 'x + y',
  [K.Sub]: () => 'x - y',
  [K.Mul]: () => 'x * y',
  [K.Div]: (d) => (d === 'int32' ? trunc('(x / y)') : 'x / y'),
  [K.Maximum]: () => '(x !== x || y !== y) ? x + y : Math.max(x, y)',
  [K.Minimum]: () => '(x !== x || y !== y) ? x + y : Math.min(x, y)',
} satisfies Partial<Record<BinaryKernelName, (d: DType) => string>>;

/** erf(v) for v >= 0 by Abramowitz-Stegun 7.1.26 (|error| < 1.5e-7), as one expression. */
function erfAbs(v: string): string {
  const t = `(1 / (1 + 0.3275911 * ${v}))`;
  const poly = [-1.453152027, 1.421413741, -0.284496736, 0.254829592].reduce(
    (acc, c) => `(${acc}) * ${t} + ${c}`,
    '1.061405429',
  );
  return `(1 - (${poly}) * ${t} * Math.exp(-(${v}) * (${v})))`;
}

/** Unary ops whose expression reads a NaN as y (Note [gpu special values]). */
const NAN_OPERAND: ReadonlySet<KernelName> = new Set([K.Log, K.Log1p]);

/** Unary expressions in what gpu.js compiles everywhere (no log1p, tanh or erf built-ins). */
const UNARY = {
  [K.Neg]: '-x',
  [K.Exp]: 'Math.exp(x)',
  // log(0) = -inf made at run time (SwiftShader's log(0) is -88)
  [K.Log]: 'x < 0 ? y : (x === 0 ? -1 / Math.abs(x) : Math.log(x))',
  // log(1 + x) loses small x to rounding: its series there
  [K.Log1p]:
    'x < -1 ? y : (x === -1 ? -1 / Math.abs(x + 1) : (Math.abs(x) < 0.0001 ? x - x * x * 0.5 + x * x * x / 3 : Math.log(1 + x)))',
  [K.Sqrt]: 'Math.sqrt(x)',
  [K.Rsqrt]: '1 / Math.sqrt(x)',
  [K.Abs]: 'Math.abs(x)',
  [K.Sign]: 'x > 0 ? 1 : (x < 0 ? -1 : 0)',
  [K.Sin]: sinExpr(0),
  [K.Cos]: sinExpr(1),
  [K.Tanh]:
    'Math.abs(x) > 9 ? (x > 0 ? 1 : -1) : (Math.abs(x) < 0.0005 ? x - x * x * x / 3 : 1 - 2 / (Math.exp(2 * x) + 1))',
  [K.Sigmoid]: '1 / (1 + Math.exp(-x))',
  [K.Relu]: 'x !== x ? x : (x < 0 ? 0 : x)',
  [K.Gelu]: `0.5 * x * (1 + (x < 0 ? -1 : 1) * ${erfAbs('Math.abs(x * 0.7071067811865476)')})`,
  [K.Silu]: 'x / (1 + Math.exp(-x))',
  [K.Softplus]: 'x > 20 ? x : Math.log(1 + Math.exp(x))',
} satisfies Partial<Record<UnaryKernelName, string>>;

export const elementwiseKernels: KernelConfig[] = [
  ...kernelEntries(ARITH).map(([name, expr]): KernelConfigOf<BinaryKernelName> => ({
    kernelName: name,
    device: 'gpu',
    kernelFunc: ([a, b]) => [gpuMap(name, expr(a!.dtype), [a!, b!], a!.dtype)],
  })),
  ...kernelEntries(COMPARE).map(([name, expr]): KernelConfigOf<BinaryKernelName> => ({
    kernelName: name,
    device: 'gpu',
    kernelFunc: ([a, b]) => [gpuMap(name, expr, [a!, b!], 'bool')],
  })),
  ...kernelEntries(UNARY).map(([name, expr]): KernelConfigOf<UnaryKernelName> => ({
    kernelName: name,
    device: 'gpu',
    // a NaN input stays NaN (Note [gpu special values])
    kernelFunc: ([x]) => [
      gpuMap(
        name,
        name === K.Sign ? expr : `x !== x ? x : (${expr})`,
        NAN_OPERAND.has(name) ? [x!, gpuNaN(x!.device)] : [x!],
        x!.dtype,
      ),
    ],
  })),
  {
    kernelName: K.Pow,
    device: 'gpu',
    kernelFunc: ([a, b]) => [gpuMap(K.Pow, POW, [a!, b!, gpuNaN(a!.device)], a!.dtype)],
  },
  {
    kernelName: K.LogicalNot,
    device: 'gpu',
    kernelFunc: ([x]) => [gpuMap(K.LogicalNot, 'x === 0 ? 1 : 0', [x!], 'bool')],
  },
  {
    kernelName: K.Clamp,
    device: 'gpu',
    kernelFunc: ([x], attrs) => {
      // an absent bound is the largest float32 (kernel arguments stay finite on every backend)
      const min = attrs.min ?? -FLT_MAX;
      const max = attrs.max ?? FLT_MAX;
      return [gpuMap(K.Clamp, 'x !== x ? x : Math.min(Math.max(x, p0), p1)', [x!], x!.dtype, [min, max])];
    },
  },
  {
    kernelName: K.Where,
    device: 'gpu',
    kernelFunc: ([cond, a, b]) => [gpuMap(K.Where, 'x !== 0 ? y : z', [cond!, a!, b!], a!.dtype)],
  },
  {
    kernelName: K.Cast,
    device: 'gpu',
    kernelFunc: ([x], attrs) => [gpuMap(K.Cast, 'x', [x!], attrs.dtype ?? x!.dtype)],
  },
  { kernelName: K.Copy, device: 'gpu', kernelFunc: ([x]) => [gpuMap(K.Copy, 'x', [x!], x!.dtype)] },
  {
    kernelName: K.MaskedFill,
    device: 'gpu',
    kernelFunc: ([x, mask], attrs) => [gpuMap(K.MaskedFill, 'y !== 0 ? p0 : x', [x!, mask!], x!.dtype, [attrs.value])],
  },
];
