import type { Optimizer } from '../optimizer.js';
import { LRScheduler, groupsOf } from './lrScheduler.js';

/** Multiplies the lr by gamma every stepSize epochs. */
export class StepLR extends LRScheduler {
  readonly gamma: number;

  constructor(
    optimizer: Optimizer,
    readonly stepSize: number,
    opts: { gamma?: number; lastEpoch?: number } = {},
  ) {
    super(optimizer, opts.lastEpoch);
    this.gamma = opts.gamma ?? 0.1;
    this.initialStep();
  }

  getLr(): number[] {
    const lrs = groupsOf(this.optimizer).map((g) => g.lr);
    if (this.lastEpoch === 0 || this.lastEpoch % this.stepSize !== 0) return lrs;
    return lrs.map((lr) => lr * this.gamma);
  }

  protected override getClosedFormLr(): number[] {
    return this.baseLrs.map((base) => base * this.gamma ** Math.floor(this.lastEpoch / this.stepSize));
  }
}
