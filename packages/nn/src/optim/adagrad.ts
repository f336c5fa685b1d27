import { type Tensor, fullLike } from '@wiregrad/autograd';
import { peekGrad } from '@wiregrad/autograd/internal';
import { type ParamGroup, type Params, Optimizer, check } from './optimizer.js';
import { checkOptionTypes } from './validate.js';

export interface AdagradOptions {
  lr?: number;
  lrDecay?: number;
  weightDecay?: number;
  initialAccumulatorValue?: number;
  eps?: number;
  maximize?: boolean;
}

export type AdagradGroup = ParamGroup & Required<Omit<AdagradOptions, 'lr'>>;

/** torch.optim.Adagrad: sum += g²; p -= lr / (1 + (step - 1) lrDecay) · g / (√sum + eps). State is created up front, as PyTorch does. */
export class Adagrad extends Optimizer<AdagradGroup> {
  constructor(params: Params<AdagradOptions>, opts: AdagradOptions = {}) {
    checkOptionTypes('Adagrad', opts, {
      lr: 'number',
      lrDecay: 'number',
      weightDecay: 'number',
      initialAccumulatorValue: 'number',
      eps: 'number',
      maximize: 'bool',
    });
    const {
      lr = 1e-2,
      lrDecay = 0,
      weightDecay = 0,
      initialAccumulatorValue = 0,
      eps = 1e-10,
      maximize = false,
    } = opts ?? {};
    check(lr >= 0, `Invalid learning rate: ${lr}`);
    check(lrDecay >= 0, `Invalid lr_decay value: ${lrDecay}`);
    check(weightDecay >= 0, `Invalid weight_decay value: ${weightDecay}`);
    check(initialAccumulatorValue >= 0, `Invalid initial_accumulator_value value: ${initialAccumulatorValue}`);
    check(eps >= 0, `Invalid epsilon value: ${eps}`);
    super(params, { lr, lrDecay, weightDecay, initialAccumulatorValue, eps, maximize });
    for (const g of this.paramGroups)
      for (const p of g.params) this.stateOf(p, () => ({ step: 0, sum: fullLike(p, g.initialAccumulatorValue) }));
  }

  protected stepGroup(g: AdagradGroup): void {
    for (const p of g.params) {
      const grad0 = peekGrad(p); // Note [Gradients nobody else saw]
      if (!grad0) continue;
      const s = this.stateOf(p, () => ({ step: 0, sum: fullLike(p, g.initialAccumulatorValue) }));
      s.step = (s.step as number) + 1;
      let grad: Tensor = g.maximize ? grad0.neg() : grad0;
      if (g.weightDecay !== 0) grad = grad.add(p, { alpha: g.weightDecay });
      const clr = g.lr / (1 + ((s.step as number) - 1) * g.lrDecay);
      const sum = s.sum as Tensor;
      sum.add_(grad.mul(grad));
      p.add_(grad.div(sum.sqrt().add(g.eps)), { alpha: -clr });
    }
  }
}
