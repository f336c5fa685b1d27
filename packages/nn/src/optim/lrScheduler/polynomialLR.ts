import type { Optimizer } from '../optimizer.js';
import { LRScheduler, groupsOf } from './lrScheduler.js';

/** Decays the lr as base · (1 - epoch / totalIters)^power, reaching 0 at totalIters (defaults 5 and 1). */
export class PolynomialLR extends LRScheduler {
  readonly totalIters: number;
  readonly power: number;

  constructor(optimizer: Optimizer, opts: { totalIters?: number; power?: number; lastEpoch?: number } = {}) {
    super(optimizer, opts.lastEpoch);
    this.totalIters = opts.totalIters ?? 5;
    this.power = opts.power ?? 1.0;
    this.initialStep();
  }

  getLr(): number[] {
    const { lastEpoch: e, totalIters: n } = this;
    const lrs = groupsOf(this.optimizer).map((g) => g.lr);
    if (e === 0 || e > n) return lrs;
    const decay = ((1.0 - e / n) / (1.0 - (e - 1) / n)) ** this.power;
    return lrs.map((lr) => lr * decay);
  }

  protected override getClosedFormLr(): number[] {
    const { lastEpoch: e, totalIters: n } = this;
    return this.baseLrs.map((base) => base * (1.0 - Math.min(n, e) / n) ** this.power);
  }
}
