import { Tensor } from '@wiregrad/autograd';
import { NnError } from '../../errors.js';
import { Optimizer } from '../optimizer.js';
import { groupsOf, ownState } from './lrScheduler.js';

export interface ReduceLROnPlateauOptions {
  mode?: 'min' | 'max';
  factor?: number;
  patience?: number;
  threshold?: number;
  thresholdMode?: 'rel' | 'abs';
  cooldown?: number;
  minLr?: number | number[];
  eps?: number;
}

/**
 * Multiplies the lr by `factor` when a metric has stopped improving for more than `patience`
 * epochs (PyTorch 1.13's ReduceLROnPlateau, not an LRScheduler there either): `step(metric)`
 * after each validation. Improving means beating the best so far by `threshold` (relative
 * or absolute); after a reduction, `cooldown` epochs pass before bad epochs count again; the
 * lr never goes below minLr, and a change smaller than eps is not made.
 */
export class ReduceLROnPlateau {
  readonly optimizer: Optimizer;
  mode: 'min' | 'max';
  factor: number;
  patience: number;
  threshold: number;
  thresholdMode: 'rel' | 'abs';
  cooldown: number;
  minLrs: number[];
  eps: number;
  cooldownCounter = 0;
  best = Infinity;
  numBadEpochs = 0;
  modeWorse = Infinity;
  lastEpoch = 0;
  private lastLr: number[] = [];

  constructor(optimizer: Optimizer, opts: ReduceLROnPlateauOptions = {}) {
    const { mode = 'min', factor = 0.1, patience = 10, threshold = 1e-4, thresholdMode = 'rel' } = opts;
    const { cooldown = 0, minLr = 0, eps = 1e-8 } = opts;
    if (factor >= 1.0) throw new NnError('INVALID_ARGUMENT', 'Factor should be < 1.0.');
    if (!(optimizer instanceof Optimizer))
      throw new NnError('INVALID_ARGUMENT', `${typeof optimizer} is not an Optimizer`);
    this.optimizer = optimizer;
    const n = optimizer.paramGroups.length;
    if (Array.isArray(minLr) && minLr.length !== n)
      throw new NnError('INVALID_ARGUMENT', `expected ${n} min_lrs, got ${minLr.length}`);
    this.minLrs = Array.isArray(minLr) ? [...minLr] : Array.from({ length: n }, () => minLr);
    this.factor = factor;
    this.patience = patience;
    this.cooldown = cooldown;
    this.eps = eps;
    if (mode !== 'min' && mode !== 'max') throw new NnError('INVALID_ARGUMENT', `mode ${String(mode)} is unknown!`);
    if (thresholdMode !== 'rel' && thresholdMode !== 'abs')
      throw new NnError('INVALID_ARGUMENT', `threshold mode ${String(thresholdMode)} is unknown!`);
    this.mode = mode;
    this.threshold = threshold;
    this.thresholdMode = thresholdMode;
    this.modeWorse = mode === 'min' ? Infinity : -Infinity;
    this.reset();
  }

  private reset(): void {
    this.best = this.modeWorse;
    this.cooldownCounter = 0;
    this.numBadEpochs = 0;
  }

  get inCooldown(): boolean {
    return this.cooldownCounter > 0;
  }

  isBetter(a: number, best: number): boolean {
    if (this.mode === 'min')
      return this.thresholdMode === 'rel' ? a < best * (1 - this.threshold) : a < best - this.threshold;
    return this.thresholdMode === 'rel' ? a > best * (this.threshold + 1) : a > best + this.threshold;
  }

  /** One epoch's metric (a number or a one-element tensor). */
  step(metrics: number | Tensor): void {
    const current = metrics instanceof Tensor ? metrics.item() : Number(metrics);
    this.lastEpoch += 1;
    if (this.isBetter(current, this.best)) {
      this.best = current;
      this.numBadEpochs = 0;
    } else {
      this.numBadEpochs += 1;
    }
    if (this.inCooldown) {
      this.cooldownCounter -= 1;
      this.numBadEpochs = 0; // bad epochs in cooldown are ignored
    }
    if (this.numBadEpochs > this.patience) {
      groupsOf(this.optimizer).forEach((g, i) => {
        const newLr = Math.max(g.lr * this.factor, this.minLrs[i]!);
        if (g.lr - newLr > this.eps) g.lr = newLr;
      });
      this.cooldownCounter = this.cooldown;
      this.numBadEpochs = 0;
    }
    this.lastLr = groupsOf(this.optimizer).map((g) => g.lr);
  }

  /** The learning rates after the last step() (PyTorch 1.13 sets them there). */
  getLastLr(): number[] {
    return [...this.lastLr];
  }

  /** Every field but the optimizer, as PyTorch's state_dict. */
  stateDict(): Record<string, unknown> {
    return ownState(this, ['optimizer']);
  }

  loadStateDict(sd: Record<string, unknown>): void {
    Object.assign(this, structuredClone(sd));
  }
}
