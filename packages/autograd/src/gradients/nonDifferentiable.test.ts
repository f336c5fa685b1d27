import { describe, expect, it } from 'vitest';
import { KernelNames as K, type Tensor, isFloatingPoint, isNonDifferentiable, oneHot, tensor } from '../index.js';

const leaf = () => tensor([-1.5, 0, 2], { dtype: 'float64', requiresGrad: true });

/** One call per kernel declared non-differentiable, on a tensor that requires grad. */
const CALLS: Record<string, (x: Tensor) => Tensor> = {
  [K.Equal]: (x) => x.eq(0),
  [K.NotEqual]: (x) => x.ne(0),
  [K.Less]: (x) => x.lt(0),
  [K.LessEqual]: (x) => x.le(0),
  [K.Greater]: (x) => x.gt(0),
  [K.GreaterEqual]: (x) => x.ge(0),
  [K.LogicalNot]: (x) => x.logicalNot(),
  [K.Argmax]: (x) => x.argmax(),
  [K.Argmin]: (x) => x.argmin(),
  [K.OneHot]: (x) => oneHot(x.argmax(), 3),
};

describe('ops without a derivative', () => {
  it('sign records SignBackward0 and passes a zero gradient on, as PyTorch', () => {
    const x = leaf();
    const y = tensor([2, 3, 4], { dtype: 'float64', requiresGrad: true });
    const s = x.sign();
    expect(s.gradFn?.name()).toBe('SignBackward0');
    s.mul(y).sum().backward();
    expect(x.grad!.tolist()).toEqual([0, 0, 0]);
    expect(y.grad!.tolist()).toEqual(s.tolist());
  });

  it('only kernels with non-floating outputs are declared non-differentiable (PyTorch records a node for every other op)', () => {
    const declared = K.ALL_KERNELS.filter((k) => isNonDifferentiable(k));
    expect(declared.sort()).toEqual(Object.keys(CALLS).sort());
    for (const k of declared) {
      const out = CALLS[k]!(leaf());
      expect({ k, floating: isFloatingPoint(out.dtype), gradFn: out.gradFn }).toEqual({
        k,
        floating: false,
        gradFn: null,
      });
    }
  });
});
