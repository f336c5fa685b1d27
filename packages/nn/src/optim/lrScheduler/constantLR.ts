import { NnError } from '../../errors.js';
import type { Optimizer } from '../optimizer.js';
import { LRScheduler, groupsOf } from './lrScheduler.js';

/** Scales the lr by `factor` until epoch totalIters, then restores it. */
export class ConstantLR extends LRScheduler {
  readonly factor: number;
  readonly totalIters: number;

  constructor(optimizer: Optimizer, opts: { factor?: number; totalIters?: number; lastEpoch?: number } = {}) {
    const { factor = 1 / 3, totalIters = 5 } = opts;
    if (factor > 1.0 || factor < 0)
      throw new NnError('INVALID_ARGUMENT', 'Constant multiplicative factor expected to be between 0 and 1.');
    super(optimizer, opts.lastEpoch);
    this.factor = factor;
    this.totalIters = totalIters;
    this.initialStep();
  }

  getLr(): number[] {
    const lrs = groupsOf(this.optimizer).map((g) => g.lr);
    if (this.lastEpoch === 0) return lrs.map((lr) => lr * this.factor);
    if (this.lastEpoch !== this.totalIters) return lrs;
    return lrs.map((lr) => lr * (1.0 / this.factor));
  }

  protected override getClosedFormLr(): number[] {
    const done = this.lastEpoch >= this.totalIters ? 1 : 0;
    return this.baseLrs.map((base) => base * (this.factor + done * (1 - this.factor)));
  }
}
