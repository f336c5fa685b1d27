import type { DType } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { COMPARE } from '../../cpu/kernels/binary.js';
import { gpuMap, trunc } from '../gpuMap.js';

const FLT_MAX = 3.4028234663852886e38;

/**
 * Note [gpu special values]
 * GLSL leaves pow(x, y) undefined for x < 0 or x = 0, y <= 0 (Mesa: NaN for (-3)^2), and its
 * max/min and comparisons may drop NaN (Mesa: relu(NaN) = 0, max(NaN, 1) = 1). The
 * expressions below spell out what the cpu computes (JS Math semantics: integer powers of
 * negatives keep their sign, NaN propagates) so every gpu.js mode agrees with the cpu;
 * `v !== v` is the NaN test (no isnan in GLSL ES 1). Left as the hardware gives them:
 * sin/cos of huge arguments (|x| >> 1e4) lose their range reduction on GL.
 */
const POW =
  'y === 0 ? 1 : ((x !== x || y !== y) ? x + y : (x < 0 ? (Math.floor(y) === y ? (Math.floor(y * 0.5) * 2 === y ? 1 : -1) * Math.pow(-x, y) : Math.pow(x, y)) : (x === 0 ? (y < 0 ? 1 / Math.abs(x) : 0) : Math.pow(x, y))))';

/** Binary arithmetic per dtype (x op y); int32 division truncates like the cpu kernel. */
const ARITH: Record<string, (d: DType) => string> = {
  [K.Add]: () => 'x + y',
  [K.Sub]: () => 'x - y',
  [K.Mul]: () => 'x * y',
  [K.Div]: (d) => (d === 'int32' ? trunc('(x / y)') : 'x / y'),
  [K.Pow]: () => POW,
  [K.Maximum]: () => '(x !== x || y !== y) ? x + y : Math.max(x, y)',
  [K.Minimum]: () => '(x !== x || y !== y) ? x + y : Math.min(x, y)',
};

/** erf(v) for v >= 0 by Abramowitz-Stegun 7.1.26 (|error| < 1.5e-7), as one expression. */
function erfAbs(v: string): string {
  const t = `(1 / (1 + 0.3275911 * ${v}))`;
  const poly = [-1.453152027, 1.421413741, -0.284496736, 0.254829592].reduce(
    (acc, c) => `(${acc}) * ${t} + ${c}`,
    '1.061405429',
  );
  return `(1 - (${poly}) * ${t} * Math.exp(-(${v}) * (${v})))`;
}

/** Unary expressions in what gpu.js compiles everywhere (no log1p, tanh or erf built-ins). */
const UNARY: Record<string, string> = {
  [K.Neg]: '-x',
  [K.Exp]: 'Math.exp(x)',
  [K.Log]: 'Math.log(x)',
  // log(1 + x) loses small x to rounding: its series there
  [K.Log1p]: 'Math.abs(x) < 0.0001 ? x - x * x * 0.5 + x * x * x / 3 : Math.log(1 + x)',
  [K.Sqrt]: 'Math.sqrt(x)',
  [K.Rsqrt]: '1 / Math.sqrt(x)',
  [K.Abs]: 'Math.abs(x)',
  [K.Sign]: 'x > 0 ? 1 : (x < 0 ? -1 : 0)',
  [K.Sin]: 'Math.sin(x)',
  [K.Cos]: 'Math.cos(x)',
  [K.Tanh]:
    'Math.abs(x) > 9 ? (x > 0 ? 1 : -1) : (Math.abs(x) < 0.0005 ? x - x * x * x / 3 : 1 - 2 / (Math.exp(2 * x) + 1))',
  [K.Sigmoid]: '1 / (1 + Math.exp(-x))',
  [K.Relu]: 'x !== x ? x : (x < 0 ? 0 : x)',
  [K.Gelu]: `0.5 * x * (1 + (x < 0 ? -1 : 1) * ${erfAbs('Math.abs(x * 0.7071067811865476)')})`,
  [K.Silu]: 'x / (1 + Math.exp(-x))',
  [K.Softplus]: 'x > 20 ? x : Math.log(1 + Math.exp(x))',
};

export const elementwiseKernels: KernelConfig[] = [
  ...Object.entries(ARITH).map(([name, expr]): KernelConfig => ({
    kernelName: name,
    device: 'gpu',
    kernelFunc: ([a, b]) => [gpuMap(name, expr(a!.dtype), [a!, b!], a!.dtype)],
  })),
  ...Object.entries(COMPARE).map(([name, expr]): KernelConfig => ({
    kernelName: name,
    device: 'gpu',
    kernelFunc: ([a, b]) => [gpuMap(name, expr, [a!, b!], 'bool')],
  })),
  ...Object.entries(UNARY).map(([name, expr]): KernelConfig => ({
    kernelName: name,
    device: 'gpu',
    kernelFunc: ([x]) => [gpuMap(name, expr, [x!], x!.dtype)],
  })),
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
      const min = (attrs.min as number | null) ?? -FLT_MAX;
      const max = (attrs.max as number | null) ?? FLT_MAX;
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
    kernelFunc: ([x], attrs) => [gpuMap(K.Cast, 'x', [x!], (attrs.dtype as DType | undefined) ?? x!.dtype)],
  },
  { kernelName: K.Copy, device: 'gpu', kernelFunc: ([x]) => [gpuMap(K.Copy, 'x', [x!], x!.dtype)] },
  {
    kernelName: K.MaskedFill,
    device: 'gpu',
    kernelFunc: ([x, mask], attrs) => [
      gpuMap(K.MaskedFill, 'y !== 0 ? p0 : x', [x!, mask!], x!.dtype, [attrs.value as number]),
    ],
  },
];
