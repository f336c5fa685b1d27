import { type Tensor, mean, sum } from '@wiregrad/autograd';
import { NnError, shapeText } from '../errors.js';

export type Reduction = 'mean' | 'sum' | 'none';

/** Throws PyTorch's "<r> is not a valid value for reduction" for anything but mean/sum/none. */
export function checkReduction(reduction: string): Reduction {
  if (reduction !== 'mean' && reduction !== 'sum' && reduction !== 'none')
    throw new NnError('INVALID_ARGUMENT', `${reduction} is not a valid value for reduction`);
  return reduction;
}

/** PyTorch's apply_loss_reduction. */
export function applyReduction(loss: Tensor, reduction: Reduction): Tensor {
  return reduction === 'mean' ? mean(loss) : reduction === 'sum' ? sum(loss) : loss;
}

const sameShape = (a: Tensor, b: Tensor) => a.ndim === b.ndim && a.shape.every((s, i) => s === b.shape[i]);

/** Pointwise losses broadcast like PyTorch but refuse silent broadcasting of a differently shaped target for the BCE family. */
export function checkSameSize(input: Tensor, target: Tensor, message: (t: string, i: string) => string): void {
  if (!sameShape(input, target))
    throw new NnError('INVALID_SHAPE', message(shapeText(target.shape), shapeText(input.shape)));
}

/** Argument checks every loss shares: tensors, and a valid reduction. */
export function lossArgs(name: string, input: unknown, target: unknown, reduction: string | undefined): Reduction {
  for (const [arg, v] of [
    ['input', input],
    ['target', target],
  ] as const) {
    if (typeof v !== 'object' || v === null || !('storage' in v))
      throw new NnError(
        'INVALID_ARGUMENT',
        `${name}(): argument '${arg}' must be a Tensor, not ${v === null ? 'null' : typeof v}`,
      );
  }
  return checkReduction(reduction ?? 'mean');
}
