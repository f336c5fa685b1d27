import { type Tensor, batchNorm as batchNormOp, noGrad } from '@wiregrad/autograd';
import { NnError } from '../errors.js';
import { channelAffine } from './groupNorm.js';

export interface InstanceNormOptions {
  runningMean?: Tensor | null;
  runningVar?: Tensor | null;
  weight?: Tensor | null;
  bias?: Tensor | null;
  /** normalise with each instance's own statistics (default true; false uses the running ones) */
  useInputStats?: boolean;
  momentum?: number;
  eps?: number;
}

/**
 * torch.nn.functional.instance_norm: each channel of each sample of [N, C, *] normalised over
 * its spatial dims. As ATen's instance_norm, it is batch norm over [1, N·C, *] with the running
 * stats repeated N times; the running stats then become the mean over the batch of the updated
 * copies (momentum · the mean of the instances' unbiased variances, for running_var).
 */
export function instanceNorm(x: Tensor, opts: InstanceNormOptions = {}): Tensor {
  const { runningMean = null, runningVar = null, weight = null, bias = null } = opts;
  const { useInputStats = true, momentum = 0.1, eps = 1e-5 } = opts;
  if (x.ndim < 3)
    throw new NnError('INVALID_SHAPE', `instance_norm expects an input of at least 3 dims [N, C, *], got ${x.ndim}`);
  const [N, C] = x.shape as [number, number];
  if (!useInputStats && (!runningMean || !runningVar))
    throw new NnError(
      'INVALID_ARGUMENT',
      'Expected running_mean and running_var to be defined when use_input_stats is false',
    );
  if (useInputStats && x.numel / (N * C) <= 1)
    throw new NnError(
      'INVALID_SHAPE',
      `Expected more than 1 spatial element when training, got input size [${x.shape.join(', ')}]`,
    );
  const repeat = (t: Tensor | null) =>
    t
      ? t
          .unsqueeze(0)
          .expand([N, C])
          .reshape([N * C])
          .clone()
      : null;
  const rm = repeat(runningMean);
  const rv = repeat(runningVar);
  const flat = x.reshape([1, N * C, ...x.shape.slice(2)]);
  const y = batchNormOp(flat, null, null, rm, rv, { training: useInputStats, momentum, eps }).reshape([...x.shape]);
  noGrad(() => {
    if (runningMean && rm) runningMean.copy_(rm.reshape([N, C]).mean(0));
    if (runningVar && rv) runningVar.copy_(rv.reshape([N, C]).mean(0));
  });
  return channelAffine(y, weight, bias);
}
