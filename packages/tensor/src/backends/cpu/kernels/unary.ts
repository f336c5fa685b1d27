import type { DType } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig, KernelConfigOf } from '../../../kernelRegistry.js';
import { type UnaryKernelName, kernelEntries } from '../../../kernelSpecs.js';
import { perDtype } from '../compiledLoops.js';
import { compileElementwise } from '../elementwise.js';
import { erf } from '../erf.js';
import { hasWasmUnary, wasmUnary } from '../wasm/wasmElementwise.js';
import { runElementwise } from './tensorOperands.js';

/** One expression over `x` per unary kernel; the output has x's dtype. */
const EXPR = {
  [K.Neg]: '-x',
  [K.Exp]: 'Math.exp(x)',
  [K.Log]: 'Math.log(x)',
  [K.Log1p]: 'Math.log1p(x)',
  [K.Sqrt]: 'Math.sqrt(x)',
  [K.Rsqrt]: '1 / Math.sqrt(x)',
  [K.Abs]: 'Math.abs(x)',
  // like torch: sign(NaN) and sign(-0) are 0
  [K.Sign]: 'x > 0 ? 1 : x < 0 ? -1 : 0',
  [K.Sin]: 'Math.sin(x)',
  [K.Cos]: 'Math.cos(x)',
  [K.Tanh]: 'Math.tanh(x)',
  [K.Sigmoid]: '1 / (1 + Math.exp(-x))',
  [K.Relu]: 'x < 0 ? 0 : x',
  // torch's default gelu: the exact erf form
  [K.Gelu]: '0.5 * x * (1 + erf(x * 0.7071067811865476))',
  [K.Silu]: 'x / (1 + Math.exp(-x))',
  // torch's default softplus: beta 1, threshold 20
  [K.Softplus]: 'x > 20 ? x : Math.log1p(Math.exp(x))',
} satisfies Partial<Record<UnaryKernelName, string>>;

function unaryKernel(kernelName: UnaryKernelName, expr: string, outDtype?: DType): KernelConfigOf<UnaryKernelName> {
  const loopFor = perDtype(() => compileElementwise(1, expr, { erf }));
  return {
    kernelName,
    device: 'cpu',
    kernelFunc: hasWasmUnary(kernelName)
      ? ([x]) => [wasmUnary(kernelName, x!) ?? runElementwise(loopFor(x!.dtype), [x!], x!.dtype)]
      : ([x]) => [runElementwise(loopFor(x!.dtype), [x!], outDtype ?? x!.dtype)],
  };
}

export const unaryKernels: KernelConfig[] = [
  ...kernelEntries(EXPR).map(([name, expr]) => unaryKernel(name, expr)),
  // NaN is true, as for any non-zero value
  unaryKernel(K.LogicalNot, 'x === 0 ? 1 : 0', 'bool'),
];
