import { type Tensor, TensorError, clone } from '@wiregrad/autograd';
import { Optimizer } from './optimizer.js';

export interface SGDOptions {
  lr: number;
  momentum?: number;
  dampening?: number;
  weightDecay?: number;
  nesterov?: boolean;
}

/** torch.optim.SGD: p -= lr * (g + wd p), with momentum buffers as in PyTorch. */
export class SGD extends Optimizer {
  private readonly buffers = new Map<number, Tensor>();

  constructor(
    params: Iterable<Tensor>,
    readonly opts: SGDOptions,
  ) {
    super(params);
    const { lr, momentum = 0, dampening = 0, weightDecay = 0, nesterov = false } = opts;
    if (!(lr >= 0)) throw new TensorError('INVALID_ARGUMENT', `Invalid learning rate: ${lr}`);
    if (!(momentum >= 0)) throw new TensorError('INVALID_ARGUMENT', `Invalid momentum value: ${momentum}`);
    if (!(weightDecay >= 0)) throw new TensorError('INVALID_ARGUMENT', `Invalid weight_decay value: ${weightDecay}`);
    if (nesterov && (momentum <= 0 || dampening !== 0)) throw new TensorError('INVALID_ARGUMENT', 'Nesterov momentum requires a momentum and zero dampening');
  }

  protected update(p: Tensor, grad: Tensor, i: number): void {
    const { lr, momentum = 0, dampening = 0, weightDecay = 0, nesterov = false } = this.opts;
    let d = weightDecay !== 0 ? grad.add(p, { alpha: weightDecay }) : grad;
    if (momentum !== 0) {
      let buf = this.buffers.get(i);
      if (!buf) this.buffers.set(i, (buf = clone(d)));
      else buf.mul_(momentum).add_(d, { alpha: 1 - dampening });
      d = nesterov ? d.add(buf, { alpha: momentum }) : buf;
    }
    p.sub_(d, { alpha: lr });
  }
}
