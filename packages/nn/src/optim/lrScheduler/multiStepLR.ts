import type { Optimizer } from '../optimizer.js';
import { LRScheduler, groupsOf } from './lrScheduler.js';

/** Multiplies the lr by gamma at each milestone (by gamma^k at a milestone listed k times). */
export class MultiStepLR extends LRScheduler {
  readonly gamma: number;
  readonly milestones: Record<number, number>;

  constructor(optimizer: Optimizer, milestones: number[], opts: { gamma?: number; lastEpoch?: number } = {}) {
    super(optimizer, opts.lastEpoch);
    this.gamma = opts.gamma ?? 0.1;
    this.milestones = {};
    for (const m of milestones) this.milestones[m] = (this.milestones[m] ?? 0) + 1;
    this.initialStep();
  }

  getLr(): number[] {
    const lrs = groupsOf(this.optimizer).map((g) => g.lr);
    const k = this.milestones[this.lastEpoch];
    return k === undefined ? lrs : lrs.map((lr) => lr * this.gamma ** k);
  }

  protected override getClosedFormLr(): number[] {
    // bisect_right over the milestones, each repeated as often as it was given
    const passed = Object.entries(this.milestones).reduce((n, [m, k]) => n + (Number(m) <= this.lastEpoch ? k : 0), 0);
    return this.baseLrs.map((base) => base * this.gamma ** passed);
  }
}
