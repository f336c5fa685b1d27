import { type Tensor, zerosLike } from '@wiregrad/autograd';
import { peekGrad } from '@wiregrad/autograd/internal';
import { type ParamGroup, type Params, Optimizer, check } from './optimizer.js';
import { checkOptionTypes } from './validate.js';

export interface AdadeltaOptions {
  lr?: number;
  rho?: number;
  eps?: number;
  weightDecay?: number;
  maximize?: boolean;
}

export type AdadeltaGroup = ParamGroup & Required<Omit<AdadeltaOptions, 'lr'>>;

/**
 * torch.optim.Adadelta (PyTorch 1.13's _single_tensor_adadelta): square_avg = ρ square_avg + (1-ρ) g²;
 * δ = √(acc_delta + eps) / √(square_avg + eps) · g; acc_delta = ρ acc_delta + (1-ρ) δ²; p -= lr δ.
 */
export class Adadelta extends Optimizer<AdadeltaGroup> {
  constructor(params: Params<AdadeltaOptions>, opts: AdadeltaOptions = {}) {
    checkOptionTypes('Adadelta', opts, {
      lr: 'number',
      rho: 'number',
      eps: 'number',
      weightDecay: 'number',
      maximize: 'bool',
    });
    const { lr = 1.0, rho = 0.9, eps = 1e-6, weightDecay = 0, maximize = false } = opts ?? {};
    check(lr >= 0, `Invalid learning rate: ${lr}`);
    check(rho >= 0 && rho <= 1, `Invalid rho value: ${rho}`);
    check(eps >= 0, `Invalid epsilon value: ${eps}`);
    check(weightDecay >= 0, `Invalid weight_decay value: ${weightDecay}`);
    super(params, { lr, rho, eps, weightDecay, maximize });
  }

  protected stepGroup(g: AdadeltaGroup): void {
    for (const p of g.params) {
      const grad0 = peekGrad(p); // Note [Gradients nobody else saw]
      if (!grad0) continue;
      const s = this.stateOf(p, () => ({ step: 0, square_avg: zerosLike(p), acc_delta: zerosLike(p) }));
      let grad: Tensor = g.maximize ? grad0.neg() : grad0;
      if (g.weightDecay !== 0) grad = grad.add(p, { alpha: g.weightDecay });
      const squareAvg = s.square_avg as Tensor;
      const accDelta = s.acc_delta as Tensor;
      squareAvg.mul_(g.rho).add_(grad.mul(grad), { alpha: 1 - g.rho });
      const std = squareAvg.add(g.eps).sqrt();
      const delta = accDelta.add(g.eps).sqrt().div(std).mul(grad);
      accDelta.mul_(g.rho).add_(delta.mul(delta), { alpha: 1 - g.rho });
      p.add_(delta, { alpha: -g.lr });
      s.step = (s.step as number) + 1;
    }
  }
}
