import { type Tensor, zerosLike } from '@wiregrad/autograd';
import { peekGrad } from '@wiregrad/autograd/internal';
import { type ParamGroup, type Params, Optimizer, check } from './optimizer.js';
import { checkOptionTypes } from './validate.js';

export interface RMSpropOptions {
  lr?: number;
  alpha?: number;
  eps?: number;
  weightDecay?: number;
  momentum?: number;
  centered?: boolean;
  maximize?: boolean;
}

export type RMSpropGroup = ParamGroup & Required<Omit<RMSpropOptions, 'lr'>>;

/** torch.optim.RMSprop: a running mean of g² (centered: minus the running mean of g, squared), optional momentum. */
export class RMSprop extends Optimizer<RMSpropGroup> {
  constructor(params: Params<RMSpropOptions>, opts: RMSpropOptions = {}) {
    checkOptionTypes('RMSprop', opts, {
      lr: 'number',
      alpha: 'number',
      eps: 'number',
      weightDecay: 'number',
      momentum: 'number',
      centered: 'bool',
      maximize: 'bool',
    });
    const {
      lr = 1e-2,
      alpha = 0.99,
      eps = 1e-8,
      weightDecay = 0,
      momentum = 0,
      centered = false,
      maximize = false,
    } = opts ?? {};
    check(lr >= 0, `Invalid learning rate: ${lr}`);
    check(eps >= 0, `Invalid epsilon value: ${eps}`);
    check(momentum >= 0, `Invalid momentum value: ${momentum}`);
    check(weightDecay >= 0, `Invalid weight_decay value: ${weightDecay}`);
    check(alpha >= 0, `Invalid alpha value: ${alpha}`);
    super(params, { lr, alpha, eps, weightDecay, momentum, centered, maximize });
  }

  protected stepGroup(g: RMSpropGroup): void {
    for (const p of g.params) {
      const grad0 = peekGrad(p); // Note [Gradients nobody else saw]
      if (!grad0) continue;
      const s = this.stateOf(p, () => ({
        step: 0,
        square_avg: zerosLike(p),
        ...(g.momentum > 0 && { momentum_buffer: zerosLike(p) }),
        ...(g.centered && { grad_avg: zerosLike(p) }),
      }));
      let grad: Tensor = g.maximize ? grad0.neg() : grad0;
      s.step = (s.step as number) + 1;
      if (g.weightDecay !== 0) grad = grad.add(p, { alpha: g.weightDecay });
      const squareAvg = s.square_avg as Tensor;
      squareAvg.mul_(g.alpha).add_(grad.mul(grad), { alpha: 1 - g.alpha });
      let avg: Tensor;
      if (g.centered) {
        const gradAvg = s.grad_avg as Tensor;
        gradAvg.mul_(g.alpha).add_(grad, { alpha: 1 - g.alpha });
        avg = squareAvg.sub(gradAvg.mul(gradAvg)).sqrt();
      } else {
        avg = squareAvg.sqrt();
      }
      avg = avg.add(g.eps);
      if (g.momentum > 0) {
        const buf = s.momentum_buffer as Tensor;
        buf.mul_(g.momentum).add_(grad.div(avg));
        p.add_(buf, { alpha: -g.lr });
      } else {
        p.add_(grad.div(avg), { alpha: -g.lr });
      }
    }
  }
}
