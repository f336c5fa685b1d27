import { NnError } from '../../errors.js';
import { Optimizer, type ParamGroup } from '../optimizer.js';

/** A param group seen by schedulers: its options by name (lr, momentum, betas, initialLr, ...). */
export type GroupOptions = ParamGroup & Record<string, unknown>;

export const groupsOf = (opt: Optimizer): GroupOptions[] => opt.paramGroups as GroupOptions[];

/** Python's modulo (the sign of the divisor), which PyTorch's schedule formulas rely on. */
export const pyMod = (a: number, b: number): number => ((a % b) + b) % b;

/**
 * Note [LR schedulers]
 * PyTorch 1.13's _LRScheduler: the constructor records `initialLr` in every group (or requires
 * it when resuming with lastEpoch >= 0), keeps `baseLrs`, and takes the initial step, which
 * sets lastEpoch to 0 and the groups' lr to getLr()'s values. Each `step()` increments
 * lastEpoch and writes getLr() into the groups. getLr() is PyTorch's chainable (recursive)
 * form, computed from the groups' current lr, so schedulers compose as in PyTorch.
 * `step(epoch)` (PyTorch's deprecated form, which SequentialLR uses at its milestones) sets
 * lastEpoch to `epoch` and takes the lrs from the closed form where the scheduler has one
 * (getClosedFormLr: StepLR, MultiStepLR, ConstantLR, LinearLR, ExponentialLR,
 * CosineAnnealingLR, PolynomialLR), else from getLr().
 */
export abstract class LRScheduler {
  readonly optimizer: Optimizer;
  baseLrs: number[];
  lastEpoch: number;
  stepCount = 0;
  protected lastLr: number[] = [];

  constructor(optimizer: Optimizer, lastEpoch = -1) {
    if (!(optimizer instanceof Optimizer))
      throw new NnError('INVALID_ARGUMENT', `${describe(optimizer)} is not an Optimizer`);
    this.optimizer = optimizer;
    const groups = groupsOf(optimizer);
    if (lastEpoch === -1) {
      for (const g of groups) if (g.initialLr === undefined) g.initialLr = g.lr;
    } else {
      groups.forEach((g, i) => {
        if (g.initialLr === undefined)
          throw new NnError(
            'KEY_ERROR',
            `param 'initial_lr' is not specified in param_groups[${i}] when resuming an optimizer`,
          );
      });
    }
    this.baseLrs = groups.map((g) => g.initialLr as number);
    this.lastEpoch = lastEpoch;
  }

  /** The first step, run by each subclass's constructor once its own fields are set (and by SequentialLR). */
  initialStep(): void {
    this.stepCount = 0;
    this.step();
  }

  /** The learning rates for the current lastEpoch (PyTorch's get_lr). */
  abstract getLr(): number[];

  /** The lrs at lastEpoch computed from the base lrs alone, for schedulers that have such a form. */
  protected getClosedFormLr?(): number[];

  step(epoch?: number): void {
    this.stepCount++;
    let lrs: number[];
    if (epoch === undefined) {
      this.lastEpoch++;
      lrs = this.getLr();
    } else {
      this.lastEpoch = epoch;
      lrs = this.getClosedFormLr ? this.getClosedFormLr() : this.getLr();
    }
    groupsOf(this.optimizer).forEach((g, i) => (g.lr = lrs[i]!));
    this.lastLr = groupsOf(this.optimizer).map((g) => g.lr);
  }

  /** The learning rates the last step() set (PyTorch's get_last_lr). */
  getLastLr(): number[] {
    return [...this.lastLr];
  }

  /** Every field but the optimizer and functions (PyTorch's state_dict; LambdaLR's functions stay out, as in PyTorch). */
  stateDict(): Record<string, unknown> {
    return ownState(this, ['optimizer']);
  }

  loadStateDict(sd: Record<string, unknown>): void {
    Object.assign(this, structuredClone(sd));
  }
}

/** A structured clone of `obj`'s own fields but `exclude` and functions (or lists of functions). */
export function ownState(obj: object, exclude: readonly string[]): Record<string, unknown> {
  const isFn = (v: unknown) => typeof v === 'function' || (Array.isArray(v) && v.some((x) => typeof x === 'function'));
  return Object.fromEntries(
    Object.entries(obj)
      .filter(([k, v]) => !exclude.includes(k) && !isFn(v))
      .map(([k, v]) => [k, structuredClone(v)]),
  );
}

function describe(v: unknown): string {
  return v === null ? 'null' : typeof v === 'object' ? ((v as object).constructor?.name ?? 'object') : typeof v;
}
