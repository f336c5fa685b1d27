import { type Tensor, TensorError, zerosLike } from '@wiregrad/autograd';
import { Optimizer } from './optimizer.js';

export interface AdamOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weightDecay?: number;
}

/** torch.optim.Adam (bias-corrected first and second moments). */
export class Adam extends Optimizer {
  private readonly state = new Map<number, { m: Tensor; v: Tensor; t: number }>();

  constructor(
    params: Iterable<Tensor>,
    readonly opts: AdamOptions = {},
  ) {
    super(params);
    const { lr = 1e-3, betas = [0.9, 0.999], eps = 1e-8, weightDecay = 0 } = opts;
    if (!(lr >= 0)) throw new TensorError('INVALID_ARGUMENT', `Invalid learning rate: ${lr}`);
    if (!(eps >= 0)) throw new TensorError('INVALID_ARGUMENT', `Invalid epsilon value: ${eps}`);
    betas.forEach((b, i) => {
      if (!(b >= 0 && b < 1)) throw new TensorError('INVALID_ARGUMENT', `Invalid beta parameter at index ${i}: ${b}`);
    });
    if (!(weightDecay >= 0)) throw new TensorError('INVALID_ARGUMENT', `Invalid weight_decay value: ${weightDecay}`);
  }

  protected update(p: Tensor, grad: Tensor, i: number): void {
    const { lr = 1e-3, betas = [0.9, 0.999], eps = 1e-8, weightDecay = 0 } = this.opts;
    const [b1, b2] = betas;
    const g = weightDecay !== 0 ? grad.add(p, { alpha: weightDecay }) : grad;
    let s = this.state.get(i);
    if (!s) this.state.set(i, (s = { m: zerosLike(p), v: zerosLike(p), t: 0 }));
    s.t++;
    s.m.mul_(b1).add_(g, { alpha: 1 - b1 });
    s.v.mul_(b2).add_(g.mul(g), { alpha: 1 - b2 });
    const c1 = 1 - b1 ** s.t;
    const c2 = 1 - b2 ** s.t;
    const denom = s.v.div(c2).sqrt().add(eps);
    p.sub_(s.m.div(denom), { alpha: lr / c1 });
  }
}
