import { type Tensor, cat, enableGrad, keep, noGrad, zeros } from '@wiregrad/autograd';
import { peekGrad } from '@wiregrad/autograd/internal';
import { NnError } from '../errors.js';
import { type ParamGroup, type Params, Optimizer, check } from './optimizer.js';
import { strongWolfe } from './strongWolfe.js';
import { checkOptionTypes } from './validate.js';

export interface LBFGSOptions {
  lr?: number;
  maxIter?: number;
  /** default maxIter · 5 / 4, rounded down */
  maxEval?: number;
  toleranceGrad?: number;
  toleranceChange?: number;
  historySize?: number;
  lineSearchFn?: 'strong_wolfe' | null;
}

export type LBFGSGroup = ParamGroup & Required<Omit<LBFGSOptions, 'lr'>>;

/** What LBFGS keeps between steps, under PyTorch's state keys (in the state of its first parameter). */
interface LBFGSState {
  func_evals: number;
  n_iter: number;
  d?: Tensor;
  t?: number;
  old_dirs?: Tensor[];
  old_stps?: Tensor[];
  ro?: number[];
  H_diag?: number;
  prev_flat_grad?: Tensor;
  prev_loss?: number;
  al?: (number | null)[];
}

/**
 * torch.optim.LBFGS (PyTorch 1.13, after minFunc): each step(closure) runs up to maxIter
 * quasi-Newton iterations on the parameters flattened into one vector, the direction from the
 * two-loop recursion over the last historySize curvature pairs (s, y) (a pair with y·s <= 1e-10
 * is skipped), the first step scaled to min(1, 1/|g|₁) · lr; then either a fixed step of lr, or
 * the strong Wolfe line search (See Note [Strong Wolfe line search]). It stops on maxEval
 * closure calls, a gradient below toleranceGrad (max norm), or a change in the parameters or
 * the loss below toleranceChange. One parameter group only; the closure must zero the
 * gradients, compute the loss, call backward() and return the loss.
 */
export class LBFGS extends Optimizer<LBFGSGroup> {
  constructor(params: Params<LBFGSOptions>, opts: LBFGSOptions = {}) {
    checkOptionTypes('LBFGS', opts, {
      lr: 'number',
      maxIter: 'number',
      maxEval: 'number',
      toleranceGrad: 'number',
      toleranceChange: 'number',
      historySize: 'number',
    });
    const {
      lr = 1,
      maxIter = 20,
      maxEval = Math.floor((maxIter * 5) / 4),
      toleranceGrad = 1e-7,
      toleranceChange = 1e-9,
      historySize = 100,
      lineSearchFn = null,
    } = opts ?? {};
    check(lineSearchFn === null || lineSearchFn === 'strong_wolfe', "only 'strong_wolfe' is supported");
    super(params, { lr, maxIter, maxEval, toleranceGrad, toleranceChange, historySize, lineSearchFn });
    if (this.paramGroups.length !== 1)
      throw new NnError('INVALID_ARGUMENT', "LBFGS doesn't support per-parameter options (parameter groups)");
  }

  private get params(): Tensor[] {
    return this.paramGroups[0]!.params;
  }

  private gatherFlatGrad(): Tensor {
    return cat(
      this.params.map((p) => peekGrad(p)?.reshape([-1]) ?? zeros([p.numel], { dtype: p.dtype, device: p.device })),
    );
  }

  private addGrad(stepSize: number, update: Tensor): void {
    let offset = 0;
    for (const p of this.params) {
      p.add_(update.narrow(0, offset, p.numel).viewAs(p), { alpha: stepSize });
      offset += p.numel;
    }
  }

  private directionalEvaluate(closure: () => Tensor | number, x: Tensor[], t: number, d: Tensor): [number, Tensor] {
    this.addGrad(t, d);
    const loss = toNumber(enableGrad(closure));
    const flatGrad = this.gatherFlatGrad();
    this.params.forEach((p, i) => p.copy_(x[i]!));
    return [loss, flatGrad];
  }

  protected stepGroup(): never {
    throw new NnError(
      'INVALID_ARGUMENT',
      'LBFGS.step() needs a closure that reevaluates the model and returns the loss',
    );
  }

  /** One optimisation step (up to maxIter iterations); returns the closure's first loss. */
  override step(closure?: () => Tensor | number): Tensor | number {
    if (typeof closure !== 'function') return this.stepGroup();
    return noGrad(() => this.run(closure));
  }

  private run(closure: () => Tensor | number): Tensor | number {
    const group = this.paramGroups[0]!;
    const { lr, maxIter, maxEval, toleranceGrad, toleranceChange, historySize, lineSearchFn } = group;
    const state = this.stateOf(this.params[0]!, () => ({ func_evals: 0, n_iter: 0 })) as unknown as LBFGSState;

    const origLoss = enableGrad(closure);
    let loss = toNumber(origLoss);
    let currentEvals = 1;
    state.func_evals += 1;
    let flatGrad = this.gatherFlatGrad();
    let optCond = flatGrad.abs().max().item() <= toleranceGrad;
    if (optCond) return origLoss;

    let { d, t, old_dirs: oldDirs, old_stps: oldStps, ro, H_diag: hDiag, prev_flat_grad: prevFlatGrad } = state;
    let prevLoss = state.prev_loss;
    let nIter = 0;
    while (nIter < maxIter) {
      nIter++;
      state.n_iter++;
      if (state.n_iter === 1) {
        d = flatGrad.neg();
        [oldDirs, oldStps, ro, hDiag] = [[], [], [], 1];
      } else {
        oldDirs ??= [];
        oldStps ??= [];
        ro ??= [];
        const y = flatGrad.sub(prevFlatGrad!);
        const s = d!.mul(t!);
        const ys = y.dot(s).item();
        if (ys > 1e-10) {
          if (oldDirs.length === historySize) {
            oldDirs.shift()!.dispose();
            oldStps.shift()!.dispose();
            ro.shift();
          }
          oldDirs.push(keep(y));
          oldStps.push(keep(s));
          ro.push(1 / ys);
          hDiag = ys / y.dot(y).item();
        }
        const al = (state.al ??= new Array<number | null>(historySize).fill(null));
        const q = flatGrad.neg();
        for (let i = oldDirs.length - 1; i >= 0; i--) {
          al[i] = oldStps[i]!.dot(q).item() * ro[i]!;
          q.add_(oldDirs[i]!, { alpha: -al[i]! });
        }
        const r = q.mul(hDiag!);
        for (let i = 0; i < oldDirs.length; i++) {
          const beI = oldDirs[i]!.dot(r).item() * ro[i]!;
          r.add_(oldStps[i]!, { alpha: al[i]! - beI });
        }
        d = r;
      }
      if (prevFlatGrad === undefined) prevFlatGrad = flatGrad.clone();
      else prevFlatGrad.copy_(flatGrad);
      prevLoss = loss;
      t = state.n_iter === 1 ? Math.min(1, 1 / flatGrad.abs().sum().item()) * lr : lr;
      const gtd = flatGrad.dot(d).item();
      if (gtd > -toleranceChange) break;

      let lsFuncEvals = 0;
      if (lineSearchFn !== null) {
        const xInit = this.params.map((p) => p.clone());
        const found = strongWolfe(
          (x, tt, dd) => this.directionalEvaluate(closure, x, tt, dd),
          xInit,
          t,
          d,
          loss,
          flatGrad,
          gtd,
        );
        [loss, flatGrad, t, lsFuncEvals] = [found.loss, found.flatGrad, found.t, found.funcEvals];
        this.addGrad(t, d);
        optCond = flatGrad.abs().max().item() <= toleranceGrad;
      } else {
        this.addGrad(t, d);
        if (nIter !== maxIter) {
          loss = toNumber(enableGrad(closure));
          flatGrad = this.gatherFlatGrad();
          optCond = flatGrad.abs().max().item() <= toleranceGrad;
          lsFuncEvals = 1;
        }
      }
      currentEvals += lsFuncEvals;
      state.func_evals += lsFuncEvals;

      if (nIter === maxIter) break;
      if (currentEvals >= maxEval) break;
      if (optCond) break;
      if (d.mul(t).abs().max().item() <= toleranceChange) break;
      if (Math.abs(loss - prevLoss) < toleranceChange) break;
    }
    if (state.d && state.d !== d) state.d.dispose(); // kept by the last step, replaced now
    Object.assign(state, {
      d: d && keep(d),
      t,
      old_dirs: oldDirs,
      old_stps: oldStps,
      ro,
      H_diag: hDiag,
      prev_flat_grad: prevFlatGrad && keep(prevFlatGrad),
      prev_loss: prevLoss,
    });
    return origLoss;
  }
}

const toNumber = (loss: Tensor | number): number => (typeof loss === 'number' ? loss : loss.item());
