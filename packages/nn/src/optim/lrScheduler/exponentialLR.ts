import type { Optimizer } from '../optimizer.js';
import { LRScheduler, groupsOf } from './lrScheduler.js';

/** Multiplies the lr by gamma every epoch. */
export class ExponentialLR extends LRScheduler {
  constructor(
    optimizer: Optimizer,
    readonly gamma: number,
    opts: { lastEpoch?: number } = {},
  ) {
    super(optimizer, opts.lastEpoch);
    this.initialStep();
  }

  getLr(): number[] {
    const lrs = groupsOf(this.optimizer).map((g) => g.lr);
    return this.lastEpoch === 0 ? lrs : lrs.map((lr) => lr * this.gamma);
  }

  protected override getClosedFormLr(): number[] {
    return this.baseLrs.map((base) => base * this.gamma ** this.lastEpoch);
  }
}
