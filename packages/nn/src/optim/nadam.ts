import { type Tensor, zerosLike } from '@wiregrad/autograd';
import { peekGrad } from '@wiregrad/autograd/internal';
import { type ParamGroup, type Params, Optimizer, check } from './optimizer.js';
import { checkOptionTypes } from './validate.js';

export interface NAdamOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weightDecay?: number;
  momentumDecay?: number;
}

export type NAdamGroup = ParamGroup & Required<Omit<NAdamOptions, 'lr'>>;

/**
 * torch.optim.NAdam (PyTorch 1.13's _single_tensor_nadam): Adam with Nesterov momentum and
 * Dozat's momentum schedule μₜ = β₁ (1 - ½ · 0.96^(t ψ)), ψ = momentumDecay; `mu_product`
 * (the product of the μ's so far) is kept in the state, as in PyTorch. Its next-step product
 * is 1.13's μ-product · μₜ · μₜ₊₁ (2.0 drops the repeated μₜ).
 */
export class NAdam extends Optimizer<NAdamGroup> {
  constructor(params: Params<NAdamOptions>, opts: NAdamOptions = {}) {
    checkOptionTypes('NAdam', opts, {
      lr: 'number',
      betas: 'pair',
      eps: 'number',
      weightDecay: 'number',
      momentumDecay: 'number',
    });
    const { lr = 2e-3, betas = [0.9, 0.999], eps = 1e-8, weightDecay = 0, momentumDecay = 4e-3 } = opts ?? {};
    check(lr >= 0, `Invalid learning rate: ${lr}`);
    check(eps >= 0, `Invalid epsilon value: ${eps}`);
    betas.forEach((b, i) => check(b >= 0 && b < 1, `Invalid beta parameter at index ${i}: ${b}`));
    check(weightDecay >= 0, `Invalid weight_decay value: ${weightDecay}`);
    check(momentumDecay >= 0, `Invalid momentum_decay value: ${momentumDecay}`);
    super(params, { lr, betas, eps, weightDecay, momentumDecay });
  }

  protected stepGroup(g: NAdamGroup): void {
    const [beta1, beta2] = g.betas;
    for (const p of g.params) {
      const grad0 = peekGrad(p); // Note [Gradients nobody else saw]
      if (!grad0) continue;
      const s = this.stateOf(p, () => ({ step: 0, mu_product: 1, exp_avg: zerosLike(p), exp_avg_sq: zerosLike(p) }));
      let grad: Tensor = grad0;
      const step = (s.step = (s.step as number) + 1);
      const biasCorrection2 = 1 - beta2 ** step;
      if (g.weightDecay !== 0) grad = grad.add(p, { alpha: g.weightDecay });
      const mu = beta1 * (1 - 0.5 * 0.96 ** (step * g.momentumDecay));
      const muNext = beta1 * (1 - 0.5 * 0.96 ** ((step + 1) * g.momentumDecay));
      const muProduct = (s.mu_product = (s.mu_product as number) * mu);
      // PyTorch 1.13 multiplies by μ twice here (fixed in 2.0); kept so trajectories agree with 1.13
      const muProductNext = muProduct * mu * muNext;
      const expAvg = s.exp_avg as Tensor;
      const expAvgSq = s.exp_avg_sq as Tensor;
      expAvg.mul_(beta1).add_(grad, { alpha: 1 - beta1 });
      expAvgSq.mul_(beta2).add_(grad.mul(grad), { alpha: 1 - beta2 });
      const denom = expAvgSq.div(biasCorrection2).sqrt().add(g.eps);
      p.add_(grad.div(denom), { alpha: (-g.lr * (1 - mu)) / (1 - muProduct) });
      p.add_(expAvg.div(denom), { alpha: (-g.lr * muNext) / (1 - muProductNext) });
    }
  }
}
