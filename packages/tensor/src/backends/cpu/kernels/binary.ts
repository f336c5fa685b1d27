import type { DType } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig, KernelConfigOf } from '../../../kernelRegistry.js';
import { type BinaryKernelName, kernelEntries } from '../../../kernelSpecs.js';
import { perDtype } from '../compiledLoops.js';
import { compileElementwise } from '../elementwise.js';
import { hasWasmBinary, wasmBinary } from '../wasm/wasmElementwise.js';
import { runElementwise } from './tensorOperands.js';

/** The expression of each arithmetic kernel per dtype; `bool` results are normalised to 0/1. */
const ARITH = {
  [K.Add]: () => 'x + y',
  [K.Sub]: () => 'x - y',
  [K.Mul]: (d) => (d === 'int32' ? 'Math.imul(x, y)' : 'x * y'),
  // int32 division truncates (the Div op itself computes ints in float32, as torch.div does)
  [K.Div]: (d) => (d === 'int32' ? '(x / y) | 0' : 'x / y'),
  [K.Pow]: () => 'Math.pow(x, y)',
  // NaN propagates, as in torch.maximum / torch.minimum
  [K.Maximum]: () => '(x !== x || x > y) ? x : y',
  [K.Minimum]: () => '(x !== x || x < y) ? x : y',
} satisfies Partial<Record<BinaryKernelName, (d: DType) => string>>;

/** Comparison expressions, shared with the gpu device's kernels. */
export const COMPARE = {
  [K.Equal]: 'x === y ? 1 : 0',
  [K.NotEqual]: 'x !== y ? 1 : 0',
  [K.Less]: 'x < y ? 1 : 0',
  [K.LessEqual]: 'x <= y ? 1 : 0',
  [K.Greater]: 'x > y ? 1 : 0',
  [K.GreaterEqual]: 'x >= y ? 1 : 0',
} satisfies Partial<Record<BinaryKernelName, string>>;

function arithKernel(kernelName: BinaryKernelName, expr: (d: DType) => string): KernelConfigOf<BinaryKernelName> {
  // one loop per expression and dtype (Note [Generated elementwise loops])
  const loopFor = perDtype((d) => compileElementwise(2, d === 'bool' ? `(${expr(d)}) !== 0 ? 1 : 0` : expr(d)));
  return {
    kernelName,
    device: 'cpu',
    kernelFunc: hasWasmBinary(kernelName)
      ? ([a, b]) => [wasmBinary(kernelName, a!, b!) ?? runElementwise(loopFor(a!.dtype), [a!, b!], a!.dtype)]
      : ([a, b]) => [runElementwise(loopFor(a!.dtype), [a!, b!], a!.dtype)],
  };
}

function compareKernel(kernelName: BinaryKernelName, expr: string): KernelConfigOf<BinaryKernelName> {
  const loopFor = perDtype(() => compileElementwise(2, expr));
  return {
    kernelName,
    device: 'cpu',
    kernelFunc: ([a, b]) => [runElementwise(loopFor(a!.dtype), [a!, b!], 'bool')],
  };
}

export const binaryKernels: KernelConfig[] = [
  ...kernelEntries(ARITH).map(([name, expr]) => arithKernel(name, expr)),
  ...kernelEntries(COMPARE).map(([name, expr]) => compareKernel(name, expr)),
];
