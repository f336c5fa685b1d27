import type { DType } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { elementwiseLoop } from '../elementwise.js';
import { runElementwise } from './tensorOperands.js';

/** The expression of each arithmetic kernel per dtype; `bool` results are normalised to 0/1. */
const ARITH: Record<string, (d: DType) => string> = {
  [K.Add]: () => 'x + y',
  [K.Sub]: () => 'x - y',
  [K.Mul]: (d) => (d === 'int32' ? 'Math.imul(x, y)' : 'x * y'),
  // int32 division truncates (the Div op itself computes ints in float32, as torch.div does)
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

function arithKernel(kernelName: string, expr: (d: DType) => string): KernelConfig {
  return {
    kernelName,
    device: 'cpu',
    kernelFunc: ([a, b]) => {
      const d = a!.dtype;
      const e = d === 'bool' ? `(${expr(d)}) !== 0 ? 1 : 0` : expr(d);
      return [runElementwise(elementwiseLoop(`${kernelName}/${d}`, 2, e), [a!, b!], d)];
    },
  };
}

function compareKernel(kernelName: string, expr: string): KernelConfig {
  return {
    kernelName,
    device: 'cpu',
    kernelFunc: ([a, b]) => [runElementwise(elementwiseLoop(`${kernelName}/${a!.dtype}`, 2, expr), [a!, b!], 'bool')],
  };
}

export const binaryKernels: KernelConfig[] = [
  ...Object.entries(ARITH).map(([name, expr]) => arithKernel(name, expr)),
  ...Object.entries(COMPARE).map(([name, expr]) => compareKernel(name, expr)),
];
