import type { Optimizer } from '../optimizer.js';
import { LRScheduler, groupsOf, pyMod } from './lrScheduler.js';

/** Cosine annealing from the base lr to etaMin over tMax epochs (and back up after, as PyTorch's recursive form does). */
export class CosineAnnealingLR extends LRScheduler {
  readonly etaMin: number;

  constructor(
    optimizer: Optimizer,
    readonly tMax: number,
    opts: { etaMin?: number; lastEpoch?: number } = {},
  ) {
    super(optimizer, opts.lastEpoch);
    this.etaMin = opts.etaMin ?? 0;
    this.initialStep();
  }

  getLr(): number[] {
    const { lastEpoch: e, tMax: T, etaMin } = this;
    const groups = groupsOf(this.optimizer);
    if (e === 0) return groups.map((g) => g.lr);
    if (this.stepCount === 1 && e > 0)
      return this.baseLrs.map((base) => etaMin + ((base - etaMin) * (1 + Math.cos((e * Math.PI) / T))) / 2);
    if (pyMod(e - 1 - T, 2 * T) === 0)
      return groups.map((g, i) => g.lr + ((this.baseLrs[i]! - etaMin) * (1 - Math.cos(Math.PI / T))) / 2);
    return groups.map(
      (g) => ((1 + Math.cos((Math.PI * e) / T)) / (1 + Math.cos((Math.PI * (e - 1)) / T))) * (g.lr - etaMin) + etaMin,
    );
  }

  protected override getClosedFormLr(): number[] {
    const { lastEpoch: e, tMax: T, etaMin } = this;
    return this.baseLrs.map((base) => etaMin + ((base - etaMin) * (1 + Math.cos((Math.PI * e) / T))) / 2);
  }
}
