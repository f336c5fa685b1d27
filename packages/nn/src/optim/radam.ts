import { type Tensor, div, zerosLike } from '@wiregrad/autograd';
import { peekGrad } from '@wiregrad/autograd/internal';
import { type ParamGroup, type Params, Optimizer, check } from './optimizer.js';
import { checkOptionTypes } from './validate.js';

export interface RAdamOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weightDecay?: number;
}

export type RAdamGroup = ParamGroup & Required<Omit<RAdamOptions, 'lr'>>;

/**
 * torch.optim.RAdam (PyTorch 1.13's _single_tensor_radam): Adam whose adaptive step is scaled
 * by the variance rectification term once the approximated SMA length ρₜ exceeds 5; before
 * that, a plain bias-corrected momentum step.
 */
export class RAdam extends Optimizer<RAdamGroup> {
  constructor(params: Params<RAdamOptions>, opts: RAdamOptions = {}) {
    checkOptionTypes('RAdam', opts, { lr: 'number', betas: 'pair', eps: 'number', weightDecay: 'number' });
    const { lr = 1e-3, betas = [0.9, 0.999], eps = 1e-8, weightDecay = 0 } = opts ?? {};
    check(lr >= 0, `Invalid learning rate: ${lr}`);
    check(eps >= 0, `Invalid epsilon value: ${eps}`);
    betas.forEach((b, i) => check(b >= 0 && b < 1, `Invalid beta parameter at index ${i}: ${b}`));
    check(weightDecay >= 0, `Invalid weight_decay value: ${weightDecay}`);
    super(params, { lr, betas, eps, weightDecay });
  }

  protected stepGroup(g: RAdamGroup): void {
    const [beta1, beta2] = g.betas;
    for (const p of g.params) {
      const grad0 = peekGrad(p); // Note [Gradients nobody else saw]
      if (!grad0) continue;
      const s = this.stateOf(p, () => ({ step: 0, exp_avg: zerosLike(p), exp_avg_sq: zerosLike(p) }));
      let grad: Tensor = grad0;
      const step = (s.step = (s.step as number) + 1);
      const biasCorrection1 = 1 - beta1 ** step;
      const biasCorrection2 = 1 - beta2 ** step;
      if (g.weightDecay !== 0) grad = grad.add(p, { alpha: g.weightDecay });
      const expAvg = s.exp_avg as Tensor;
      const expAvgSq = s.exp_avg_sq as Tensor;
      expAvg.mul_(beta1).add_(grad, { alpha: 1 - beta1 });
      expAvgSq.mul_(beta2).add_(grad.mul(grad), { alpha: 1 - beta2 });
      const corrected = expAvg.div(biasCorrection1);
      const rhoInf = 2 / (1 - beta2) - 1;
      const rhoT = rhoInf - (2 * step * beta2 ** step) / biasCorrection2;
      if (rhoT > 5) {
        const rect = Math.sqrt(((rhoT - 4) * (rhoT - 2) * rhoInf) / ((rhoInf - 4) * (rhoInf - 2) * rhoT));
        // Python's float / tensor is tensor.reciprocal() * float
        const adaptiveLr = div(1, expAvgSq.sqrt().add(g.eps)).mul(Math.sqrt(biasCorrection2));
        p.add_(corrected.mul(g.lr).mul(adaptiveLr).mul(rect), { alpha: -1 });
      } else {
        p.add_(corrected.mul(g.lr), { alpha: -1 });
      }
    }
  }
}
