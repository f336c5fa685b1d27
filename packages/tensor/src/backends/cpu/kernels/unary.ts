import type { DType } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { compileElementwise, type ElementwiseLoop } from '../elementwise.js';
import { erf } from '../erf.js';
import { runElementwise } from './tensorOperands.js';

const EXPR: Record<string, string> = {
  [K.Neg]: '-x',
  [K.Exp]: 'Math.exp(x)',
  [K.Log]: 'Math.log(x)',
  [K.Log1p]: 'Math.log1p(x)',
  [K.Sqrt]: 'Math.sqrt(x)',
  [K.Rsqrt]: '1 / Math.sqrt(x)',
  [K.Abs]: 'Math.abs(x)',
  [K.Sign]: 'x > 0 ? 1 : x < 0 ? -1 : x',
  [K.Sin]: 'Math.sin(x)',
  [K.Cos]: 'Math.cos(x)',
  [K.Tanh]: 'Math.tanh(x)',
  [K.Sigmoid]: '1 / (1 + Math.exp(-x))',
  [K.Relu]: 'x > 0 || x !== x ? x : 0',
  [K.Gelu]: '0.5 * x * (1 + erf(x * 0.7071067811865476))',
  [K.Silu]: 'x / (1 + Math.exp(-x))',
  // torch's default softplus: beta 1, threshold 20
  [K.Softplus]: 'x > 20 ? x : Math.log1p(Math.exp(x))',
  [K.LogicalNot]: 'x ? 0 : 1',
  [K.Clamp]: 'x !== x ? x : x < p0 ? p0 : x > p1 ? p1 : x',
};

const cache = new Map<string, ElementwiseLoop>();
function loopFor(name: string): ElementwiseLoop {
  let loop = cache.get(name);
  if (!loop) {
    loop = compileElementwise(1, EXPR[name]!, { erf });
    cache.set(name, loop);
  }
  return loop;
}

function unaryKernel(kernelName: string): KernelConfig {
  const outDtype = (d: DType): DType => (kernelName === K.LogicalNot ? 'bool' : d);
  return {
    kernelName,
    device: 'cpu',
    kernelFunc: ([x], attrs) => {
      const params = kernelName === K.Clamp ? [(attrs.min as number | null) ?? -Infinity, (attrs.max as number | null) ?? Infinity] : [];
      return [runElementwise(loopFor(kernelName), [x!], outDtype(x!.dtype), params)];
    },
  };
}

const copyLoop = compileElementwise(1, 'x');
const toBoolLoop = compileElementwise(1, 'x !== 0 ? 1 : 0');
const whereLoop = compileElementwise(3, 'x ? y : z');

export const unaryKernels: KernelConfig[] = [
  ...Object.keys(EXPR).map(unaryKernel),
  { kernelName: K.Copy, device: 'cpu', kernelFunc: ([x]) => [runElementwise(copyLoop, [x!], x!.dtype)] },
  {
    kernelName: K.Cast,
    device: 'cpu',
    kernelFunc: ([x], attrs) => {
      const dtype = attrs.dtype as DType;
      return [runElementwise(dtype === 'bool' ? toBoolLoop : copyLoop, [x!], dtype)];
    },
  },
  { kernelName: K.Where, device: 'cpu', kernelFunc: ([c, a, b]) => [runElementwise(whereLoop, [c!, a!, b!], a!.dtype)] },
];
