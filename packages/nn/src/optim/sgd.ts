import { type Tensor, keep, zerosLike } from '@wiregrad/autograd';
import { peekGrad } from '@wiregrad/autograd/internal';
import { fusedSgd } from './fused.js';
import { type ParamGroup, type Params, Optimizer, check } from './optimizer.js';
import { checkOptionTypes } from './validate.js';

export interface SGDOptions {
  lr: number;
  momentum?: number;
  dampening?: number;
  weightDecay?: number;
  nesterov?: boolean;
  maximize?: boolean;
  /** one pass per parameter where its tensors allow it (Note [Fused optimizer steps]); default true */
  fused?: boolean;
}

export type SGDGroup = ParamGroup & Required<Omit<SGDOptions, 'lr'>>;

/** torch.optim.SGD: d = g + wd p; with momentum, buf = momentum buf + (1 - dampening) d (buf = d at first); p -= lr d. */
export class SGD extends Optimizer<SGDGroup> {
  constructor(params: Params<SGDOptions>, opts: SGDOptions = {} as SGDOptions) {
    checkOptionTypes('SGD', opts, {
      lr: 'number',
      momentum: 'number',
      dampening: 'number',
      weightDecay: 'number',
      nesterov: 'bool',
      maximize: 'bool',
      fused: 'bool',
    });
    const {
      lr,
      momentum = 0,
      dampening = 0,
      weightDecay = 0,
      nesterov = false,
      maximize = false,
      fused = true,
    } = opts ?? ({} as SGDOptions);
    super(params, { lr, momentum, dampening, weightDecay, nesterov, maximize, fused });
    if (lr !== undefined) check(lr >= 0, `Invalid learning rate: ${lr}`);
    check(momentum >= 0, `Invalid momentum value: ${momentum}`);
    check(weightDecay >= 0, `Invalid weight_decay value: ${weightDecay}`);
    check(!nesterov || (momentum > 0 && dampening === 0), 'Nesterov momentum requires a momentum and zero dampening');
  }

  protected stepGroup(g: SGDGroup): void {
    for (const p of g.params) {
      const grad0 = peekGrad(p); // Note [Gradients nobody else saw]
      if (!grad0) continue;
      if (g.fused && this.fusedStep(p, grad0, g)) continue;
      let d: Tensor = g.maximize ? grad0.neg() : grad0;
      if (g.weightDecay !== 0) d = d.add(p, { alpha: g.weightDecay });
      if (g.momentum !== 0) {
        const s = this.stateOf(p, () => ({}));
        let buf = s.momentum_buffer as Tensor | undefined;
        if (!buf)
          s.momentum_buffer = buf = keep(d.clone()); // Note [Optimizer state outlives tidy]
        else buf.mul_(g.momentum).add_(d, { alpha: 1 - g.dampening });
        d = g.nesterov ? d.add(buf, { alpha: g.momentum }) : buf;
      }
      p.add_(d, { alpha: -g.lr });
    }
  }

  /** The one-pass update (Note [Fused optimizer steps]); false when p's tensors do not allow it. */
  private fusedStep(p: Tensor, grad: Tensor, g: SGDGroup): boolean {
    if (g.momentum === 0) return fusedSgd(p, grad, null, { ...g, firstStep: false });
    const s = this.stateOf(p, () => ({}));
    const old = s.momentum_buffer as Tensor | undefined;
    const buf = old ?? keep(zerosLike(p)); // Note [Optimizer state outlives tidy]
    if (!fusedSgd(p, grad, buf, { ...g, firstStep: old === undefined })) {
      if (old === undefined) buf.dispose();
      return false;
    }
    s.momentum_buffer = buf;
    return true;
  }
}
