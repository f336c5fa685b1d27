import { type Tensor, maximum, zerosLike } from '@wiregrad/autograd';
import { peekGrad } from '@wiregrad/autograd/internal';
import { fusedAdam } from './fused.js';
import { type ParamGroup, type ParamState, type Params, Optimizer, check } from './optimizer.js';
import { type OptionKind, checkOptionTypes } from './validate.js';

export interface AdamOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weightDecay?: number;
  amsgrad?: boolean;
  maximize?: boolean;
  /** one pass per parameter where its tensors allow it (Note [Fused optimizer steps]); default true */
  fused?: boolean;
}

/** The kinds of Adam's and AdamW's options (Note [Optimizer argument validation]). */
export const ADAM_OPTIONS: Readonly<Record<keyof AdamOptions, OptionKind>> = {
  lr: 'number',
  betas: 'pair',
  eps: 'number',
  weightDecay: 'number',
  amsgrad: 'bool',
  maximize: 'bool',
  fused: 'bool',
};

export type AdamGroup = ParamGroup & Required<Omit<AdamOptions, 'lr'>>;

/** The argument checks Adam and AdamW share, with PyTorch's messages. */
export function checkAdamOptions({ lr, eps, betas, weightDecay }: Required<AdamOptions>): void {
  check(lr >= 0, `Invalid learning rate: ${lr}`);
  check(eps >= 0, `Invalid epsilon value: ${eps}`);
  betas.forEach((b, i) => check(b >= 0 && b < 1, `Invalid beta parameter at index ${i}: ${b}`));
  check(weightDecay >= 0, `Invalid weight_decay value: ${weightDecay}`);
}

/**
 * One Adam/AdamW step of `p` (PyTorch 1.13's _single_tensor_adam / _single_tensor_adamw):
 * Adam adds wd p to the gradient; AdamW (`decoupled`) scales p by 1 - lr wd instead.
 */
export function adamStep(p: Tensor, grad: Tensor, s: ParamState, g: AdamGroup, decoupled: boolean): void {
  const [beta1, beta2] = g.betas;
  const fusedArgs = { ...g, beta1, beta2, decoupled, step: (s.step as number) + 1 };
  const state = [s.exp_avg as Tensor, s.exp_avg_sq as Tensor, g.amsgrad ? (s.max_exp_avg_sq as Tensor) : null] as const;
  if (g.fused && fusedAdam(p, grad, ...state, fusedArgs)) {
    s.step = fusedArgs.step;
    return;
  }
  let gr = g.maximize ? grad.neg() : grad;
  s.step = (s.step as number) + 1;
  if (decoupled) p.mul_(1 - g.lr * g.weightDecay);
  else if (g.weightDecay !== 0) gr = gr.add(p, { alpha: g.weightDecay });
  const expAvg = s.exp_avg as Tensor;
  const expAvgSq = s.exp_avg_sq as Tensor;
  expAvg.mul_(beta1).add_(gr, { alpha: 1 - beta1 });
  expAvgSq.mul_(beta2).add_(gr.mul(gr), { alpha: 1 - beta2 });
  const step = s.step;
  const biasCorrection1 = 1 - beta1 ** step;
  const biasCorrection2Sqrt = Math.sqrt(1 - beta2 ** step);
  let second = expAvgSq;
  if (g.amsgrad) {
    const max = s.max_exp_avg_sq as Tensor;
    max.copy_(maximum(max, expAvgSq));
    second = max;
  }
  const denom = second.sqrt().div(biasCorrection2Sqrt).add(g.eps);
  p.add_(expAvg.div(denom), { alpha: -(g.lr / biasCorrection1) });
}

/** Adam's lazily created state: step 0, zero moments (and their running max with amsgrad). */
export function adamState(p: Tensor, amsgrad: boolean): Record<string, Tensor | number> {
  return { step: 0, exp_avg: zerosLike(p), exp_avg_sq: zerosLike(p), ...(amsgrad && { max_exp_avg_sq: zerosLike(p) }) };
}

/**
 * The body Adam and AdamW share: they differ in their name (in argument errors), their default
 * weight decay, and whether the decay is decoupled from the gradient (adamStep).
 */
export abstract class AdamFamily extends Optimizer<AdamGroup> {
  constructor(
    name: string,
    defaultWeightDecay: number,
    private readonly decoupled: boolean,
    params: Params<AdamOptions>,
    opts: AdamOptions,
  ) {
    checkOptionTypes(name, opts, ADAM_OPTIONS);
    const {
      lr = 1e-3,
      betas = [0.9, 0.999],
      eps = 1e-8,
      weightDecay = defaultWeightDecay,
      amsgrad = false,
      maximize = false,
      fused = true,
    } = opts ?? {};
    checkAdamOptions({ lr, betas, eps, weightDecay, amsgrad, maximize, fused });
    super(params, { lr, betas, eps, weightDecay, amsgrad, maximize, fused });
  }

  protected stepGroup(g: AdamGroup): void {
    for (const p of g.params) {
      const grad = peekGrad(p); // Note [Gradients nobody else saw]
      if (grad)
        adamStep(
          p,
          grad,
          this.stateOf(p, () => adamState(p, g.amsgrad)),
          g,
          this.decoupled,
        );
    }
  }
}

/** torch.optim.Adam (bias-corrected moments; amsgrad keeps the running max of the second moment). */
export class Adam extends AdamFamily {
  constructor(params: Params<AdamOptions>, opts: AdamOptions = {}) {
    super('Adam', 0, false, params, opts);
  }
}
