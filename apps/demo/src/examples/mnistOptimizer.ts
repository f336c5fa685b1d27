import type { Tensor } from '@wiregrad/autograd';
import { SGD, lrScheduler } from '@wiregrad/nn/optim';
import { registerOptimizer } from '@wiregrad/dist-autograd';

export interface OneCycleSGDOptions {
  /** the peak learning rate (the 1cycle policy starts at lr/25 and ends near 0) */
  lr: number;
  /** the steps this optimizer will take in all */
  totalSteps: number;
}

/**
 * Note [MNIST learning-rate schedule]
 * The MNIST convnet trains with SGD (Nesterov momentum) on the 1cycle policy (PyTorch's
 * OneCycleLR): the learning rate warms up from lr/25 to lr over the first 30 % of the steps and
 * anneals to ~0 by the last, while momentum cycles between 0.95 and 0.85: a constant lr makes
 * LeNet-5 diverge early and wander late (docs/measurements.md). The schedule is part of the
 * optimizer (it steps with it), so the
 * parameter server's optimizers (one per trainer, built there by DistributedOptimizer under the
 * name 'OneCycleSGD') follow each trainer's own progress. Those optimizers all step the same
 * parameters, each with its own momentum, so with k trainers each peaks at lr / (2k - 1) (see
 * `trainerPeakLr`): at the full lr, k trainers' summed updates are k steps at the peak, enough to
 * make LeNet-5 diverge; and even at lr / k (the sum one step at the peak) the updates are
 * asynchronous: each gradient was computed on parameters the other trainers have since moved, which
 * acts as extra momentum on top of SGD's (Mitliagkas et al., "Asynchrony begets momentum", 2016).
 * With 2 trainers at lr / 2, 8 runs under 2 busy loops ended at 85.9-93.6 % (the e2e subset), the
 * held-out accuracy after the first epoch was 11.8-12.8 % in one of them (a collapse at the peak it
 * recovered from), and one CI run never recovered (11.9 %, chance); at lr / 3, 8 runs ended at
 * 91.9-93.4 %, every first epoch at >= 33.7 %.
 */
export class OneCycleSGD extends SGD {
  private readonly schedule: lrScheduler.OneCycleLR;

  constructor(params: Tensor[], opts: OneCycleSGDOptions) {
    super(params, { lr: opts.lr, momentum: 0.9, nesterov: true });
    this.schedule = new lrScheduler.OneCycleLR(this, opts.lr, { totalSteps: opts.totalSteps });
  }

  override step(closure?: () => Tensor | number): Tensor | number | undefined {
    const loss = super.step(closure);
    this.schedule.step();
    return loss;
  }
}

/** Each of k asynchronous trainers' optimizers' peak learning rate, for a single process's `lr` (Note [MNIST learning-rate schedule]). */
export function trainerPeakLr(lr: number, trainers: number): number {
  return lr / (2 * trainers - 1);
}

registerOptimizer('OneCycleSGD', OneCycleSGD as never);
