import { describe, expect, it } from 'vitest';
import * as T from '@wiregrad/tensor';
import { BUILTIN_OPS, builtinNames, functionName, isBuiltin, lookupFunction, register } from './registry.js';

describe('function registry (Note [Functions travel by name])', () => {
  it('pre-registers every tensor function under its export name, so the function itself can be passed', () => {
    for (const name of ['add', 'matmul', 'sum', 'zeros', 'cat', 'softmax', 'tensor'] as const) {
      expect(lookupFunction(name)).toBe(T[name]);
      expect(functionName(T[name])).toBe(name);
      expect(isBuiltin(name)).toBe(true);
    }
    expect(lookupFunction('var')).toBe(T.var_);
  });

  it("never exposes the tensor package's plumbing to peers", () => {
    for (const name of [
      'setAutogradHooks',
      'installAutogradMethods',
      'registerKernel',
      'registerTransfer',
      'runKernel',
      'getKernel',
      'onStorageDispose',
      'shutdownThreadPool',
      'gpuCompilations',
      'getNumThreads',
      'setNumThreads',
      'emptyCache',
      'dispose',
      'tidy',
      'add_',
      'fill_',
      'to',
    ]) {
      expect(lookupFunction(name), name).toBeUndefined();
    }
  });

  it('builtins are exactly the allow-list of tensor ops (Note [Builtin operators]), each an export of @wiregrad/tensor', () => {
    expect(builtinNames()).toEqual([...BUILTIN_OPS].sort());
    expect(builtinNames()).toEqual([
      'abs',
      'adaptiveAvgPool2d',
      'add',
      'arange',
      'argmax',
      'argmin',
      'avgPool2d',
      'bmm',
      'cat',
      'chunk',
      'clamp',
      'clone',
      'contiguous',
      'conv1d',
      'conv2d',
      'cos',
      'detach',
      'div',
      'dot',
      'empty',
      'eq',
      'exp',
      'expand',
      'eye',
      'flatten',
      'full',
      'fullLike',
      'gather',
      'ge',
      'gelu',
      'gt',
      'indexAdd',
      'indexSelect',
      'le',
      'linspace',
      'log',
      'log1p',
      'logSoftmax',
      'logicalNot',
      'logsumexp',
      'lt',
      'maskedFill',
      'matmul',
      'max',
      'maxPool2d',
      'maxPool2dWithIndices',
      'maximum',
      'mean',
      'min',
      'minimum',
      'mm',
      'mul',
      'narrow',
      'ne',
      'neg',
      'oneHot',
      'ones',
      'onesLike',
      'outer',
      'permute',
      'pow',
      'prod',
      'rand',
      'randLike',
      'randint',
      'randn',
      'randnLike',
      'relu',
      'reshape',
      'rsqrt',
      'scalarTensor',
      'scatterAdd',
      'select',
      'sigmoid',
      'sign',
      'silu',
      'sin',
      'slice',
      'softmax',
      'softplus',
      'split',
      'sqrt',
      'squeeze',
      'stack',
      'std',
      'sub',
      'sum',
      't',
      'tanh',
      'tensor',
      'transpose',
      'unsqueeze',
      'var',
      'view',
      'where',
      'zeros',
      'zerosLike',
    ]);
  });

  it('user functions travel by their registered name and are not builtins', () => {
    const square = (x: number) => x * x;
    register('registry.test.square', square);
    expect(functionName(square)).toBe('registry.test.square');
    expect(functionName('any.name')).toBe('any.name');
    expect(isBuiltin('registry.test.square')).toBe(false);
  });

  it('re-registering a name replaces the function; shadowing a builtin makes it a user function', () => {
    const first = () => 1;
    const second = () => 2;
    register('registry.test.f', first);
    register('registry.test.f', second);
    expect(lookupFunction('registry.test.f')).toBe(second);
    expect(() => functionName(first)).toThrow('function first is not registered');
    const myAbs = (x: number) => Math.abs(x);
    register('abs', myAbs);
    expect(isBuiltin('abs')).toBe(false);
    register('abs', T.abs);
    expect(isBuiltin('abs')).toBe(true);
  });

  it("refuses what PyTorch refuses, with its message: 'function should be callable.'", () => {
    expect(() => register('x', 42 as never)).toThrow('function should be callable.');
    expect(() => functionName(42)).toThrow('function should be callable.');
    expect(() => register('', () => 1)).toThrow('needs a non-empty name');
    expect(() => functionName(() => 1)).toThrow(
      /function <anonymous> is not registered: call register\(name, fn\) on every worker/,
    );
  });
});
