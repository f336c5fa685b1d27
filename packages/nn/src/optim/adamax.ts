import { type Tensor, maximum, zerosLike } from '@wiregrad/autograd';
import { peekGrad } from '@wiregrad/autograd/internal';
import { type ParamGroup, type Params, Optimizer, check } from './optimizer.js';
import { checkOptionTypes } from './validate.js';

export interface AdamaxOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weightDecay?: number;
  maximize?: boolean;
}

export type AdamaxGroup = ParamGroup & Required<Omit<AdamaxOptions, 'lr'>>;

/**
 * torch.optim.Adamax (PyTorch 1.13's _single_tensor_adamax): Adam with the infinity norm,
 * exp_inf = max(β₂ exp_inf, |g| + eps); p -= lr / (1 - β₁ᵗ) · exp_avg / exp_inf.
 */
export class Adamax extends Optimizer<AdamaxGroup> {
  constructor(params: Params<AdamaxOptions>, opts: AdamaxOptions = {}) {
    checkOptionTypes('Adamax', opts, {
      lr: 'number',
      betas: 'pair',
      eps: 'number',
      weightDecay: 'number',
      maximize: 'bool',
    });
    const { lr = 2e-3, betas = [0.9, 0.999], eps = 1e-8, weightDecay = 0, maximize = false } = opts ?? {};
    check(lr >= 0, `Invalid learning rate: ${lr}`);
    check(eps >= 0, `Invalid epsilon value: ${eps}`);
    betas.forEach((b, i) => check(b >= 0 && b < 1, `Invalid beta parameter at index ${i}: ${b}`));
    check(weightDecay >= 0, `Invalid weight_decay value: ${weightDecay}`);
    super(params, { lr, betas, eps, weightDecay, maximize });
  }

  protected stepGroup(g: AdamaxGroup): void {
    const [beta1, beta2] = g.betas;
    for (const p of g.params) {
      const grad0 = peekGrad(p); // Note [Gradients nobody else saw]
      if (!grad0) continue;
      const s = this.stateOf(p, () => ({ step: 0, exp_avg: zerosLike(p), exp_inf: zerosLike(p) }));
      let grad: Tensor = g.maximize ? grad0.neg() : grad0;
      s.step = (s.step as number) + 1;
      if (g.weightDecay !== 0) grad = grad.add(p, { alpha: g.weightDecay });
      const expAvg = s.exp_avg as Tensor;
      const expInf = s.exp_inf as Tensor;
      expAvg.mul_(beta1).add_(grad, { alpha: 1 - beta1 });
      expInf.copy_(maximum(expInf.mul_(beta2), grad.abs().add(g.eps)));
      const clr = g.lr / (1 - beta1 ** s.step);
      p.add_(expAvg.div(expInf), { alpha: -clr });
    }
  }
}
