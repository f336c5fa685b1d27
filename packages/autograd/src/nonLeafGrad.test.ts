import { afterEach, describe, expect, it, vi } from 'vitest';
import { tensor } from './index.js';

describe('reading .grad of a non-leaf (PyTorch warns once and returns None)', () => {
  afterEach(() => vi.restoreAllMocks());

  it("warns with PyTorch's UserWarning once, returns null, and stays quiet for leaves and retainGrad()", () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const x = tensor([1, 2], { requiresGrad: true });
    const kept = x.mul(3);
    kept.retainGrad();
    const y = x.mul(2);
    y.sum().backward();
    expect(x.grad!.tolist()).toEqual([2, 2]);
    expect(kept.grad).toBeNull();
    expect(warn).not.toHaveBeenCalled();
    expect(y.grad).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(
      /^The \.grad attribute of a Tensor that is not a leaf Tensor is being accessed\. .*use \.retainGrad\(\) on the non-leaf Tensor/,
    );
    expect(warn.mock.calls[0]![1]).toBe('UserWarning');
    expect(y.grad).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
