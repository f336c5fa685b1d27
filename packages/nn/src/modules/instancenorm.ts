import type { Tensor } from '@wiregrad/autograd';
import { NnError } from '../errors.js';
import { instanceNorm } from '../functional/instanceNorm.js';
import { type BatchNormOptions, BatchNormBase } from './batchnorm.js';

/**
 * PyTorch's _InstanceNorm: the parameters and buffers of _BatchNorm (so the same state dict
 * keys), with PyTorch's other defaults: affine and trackRunningStats false. Each instance is
 * normalised with its own statistics in training, or whenever running stats are not tracked;
 * in eval mode with tracked stats, the running ones. Unbatched input ([C, *]) is accepted.
 */
abstract class InstanceNormBase extends BatchNormBase {
  constructor(numFeatures: number, opts: BatchNormOptions = {}) {
    super(numFeatures, { affine: false, trackRunningStats: false, ...opts });
  }

  /** The number of dims of a batched input (3 for 1d, 4 for 2d). */
  protected abstract readonly batchedDims: number;

  protected checkInputDim(x: Tensor): void {
    const d = this.batchedDims;
    if (x.ndim !== d && x.ndim !== d - 1)
      throw new NnError('INVALID_SHAPE', `expected ${d - 1}D or ${d}D input (got ${x.ndim}D input)`);
  }

  override forward(x: Tensor): Tensor {
    this.checkInputDim(x);
    const batched = x.ndim === this.batchedDims;
    const channels = x.shape[batched ? 1 : 0]!;
    if (this.affine && channels !== this.numFeatures)
      throw new NnError(
        'INVALID_SHAPE',
        `expected input's size at dim=${batched ? 1 : 0} to match num_features (${this.numFeatures}), but got: ${channels}.`,
      );
    const input = batched ? x : x.unsqueeze(0);
    const y = instanceNorm(input, {
      runningMean: this.runningMean,
      runningVar: this.runningVar,
      weight: this.weight,
      bias: this.bias,
      useInputStats: this.training || !this.trackRunningStats,
      momentum: this.momentum ?? 0.1,
      eps: this.eps,
    });
    return batched ? y : y.squeeze(0);
  }
}

/** Instance norm over [N, C, L] (or [C, L]). */
export class InstanceNorm1d extends InstanceNormBase {
  protected readonly batchedDims = 3;
}

/** Instance norm over [N, C, H, W] (or [C, H, W]). */
export class InstanceNorm2d extends InstanceNormBase {
  protected readonly batchedDims = 4;
}
