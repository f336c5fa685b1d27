import type { DType } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { compileElementwise, type ElementwiseLoop } from '../elementwise.js';
import { runElementwise } from './tensorOperands.js';

/** The expression of each binary kernel per dtype; `bool` results of arithmetic are normalised to 0/1. */
const ARITH: Record<string, (d: DType) => string> = {
  [K.Add]: () => 'x + y',
  [K.Sub]: () => 'x - y',
  [K.Mul]: (d) => (d === 'int32' ? 'Math.imul(x, y)' : 'x * y'),
  [K.Div]: (d) => (d === 'int32' ? '(x / y) | 0' : 'x / y'),
  [K.Pow]: () => 'Math.pow(x, y)',
  // NaN propagates, as in torch.maximum / torch.minimum
  [K.Maximum]: () => '(x !== x || x > y) ? x : y',
  [K.Minimum]: () => '(x !== x || x < y) ? x : y',
};

const COMPARE: Record<string, string> = {
  [K.Equal]: 'x === y ? 1 : 0',
  [K.NotEqual]: 'x !== y ? 1 : 0',
  [K.Less]: 'x < y ? 1 : 0',
  [K.LessEqual]: 'x <= y ? 1 : 0',
  [K.Greater]: 'x > y ? 1 : 0',
  [K.GreaterEqual]: 'x >= y ? 1 : 0',
};

const cache = new Map<string, ElementwiseLoop>();
function loopFor(name: string, dtype: DType): ElementwiseLoop {
  const key = `${name}/${dtype}`;
  let loop = cache.get(key);
  if (!loop) {
    const arith = ARITH[name];
    let expr = arith ? arith(dtype) : COMPARE[name]!;
    if (arith && dtype === 'bool') expr = `(${expr}) !== 0 ? 1 : 0`;
    loop = compileElementwise(2, expr);
    cache.set(key, loop);
  }
  return loop;
}

function binaryKernel(kernelName: string, boolOut: boolean): KernelConfig {
  return {
    kernelName,
    device: 'cpu',
    kernelFunc: ([a, b]) => [runElementwise(loopFor(kernelName, a!.dtype), [a!, b!], boolOut ? 'bool' : a!.dtype)],
  };
}

export const binaryKernels: KernelConfig[] = [
  ...Object.keys(ARITH).map((n) => binaryKernel(n, false)),
  ...Object.keys(COMPARE).map((n) => binaryKernel(n, true)),
];
