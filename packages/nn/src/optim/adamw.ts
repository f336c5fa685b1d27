import { ADAM_OPTIONS, type AdamGroup, type AdamOptions, adamState, adamStep, checkAdamOptions } from './adam.js';
import { type Params, Optimizer } from './optimizer.js';
import { checkOptionTypes } from './validate.js';

/** torch.optim.AdamW: Adam with decoupled weight decay (p *= 1 - lr wd before the update); weightDecay defaults to 1e-2. */
export class AdamW extends Optimizer<AdamGroup> {
  constructor(params: Params<AdamOptions>, opts: AdamOptions = {}) {
    checkOptionTypes('AdamW', opts, ADAM_OPTIONS);
    const {
      lr = 1e-3,
      betas = [0.9, 0.999],
      eps = 1e-8,
      weightDecay = 1e-2,
      amsgrad = false,
      maximize = false,
      fused = true,
    } = opts ?? {};
    checkAdamOptions({ lr, betas, eps, weightDecay, amsgrad, maximize, fused });
    super(params, { lr, betas, eps, weightDecay, amsgrad, maximize, fused });
  }

  protected stepGroup(g: AdamGroup): void {
    for (const p of g.params)
      if (p.grad)
        adamStep(
          p,
          p.grad,
          this.stateOf(p, () => adamState(p, g.amsgrad)),
          g,
          true,
        );
  }
}
