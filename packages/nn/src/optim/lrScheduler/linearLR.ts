import { NnError } from '../../errors.js';
import type { Optimizer } from '../optimizer.js';
import { LRScheduler, groupsOf } from './lrScheduler.js';

/** Scales the lr linearly from startFactor to endFactor over totalIters epochs. */
export class LinearLR extends LRScheduler {
  readonly startFactor: number;
  readonly endFactor: number;
  readonly totalIters: number;

  constructor(
    optimizer: Optimizer,
    opts: { startFactor?: number; endFactor?: number; totalIters?: number; lastEpoch?: number } = {},
  ) {
    const { startFactor = 1 / 3, endFactor = 1.0, totalIters = 5 } = opts;
    if (startFactor > 1.0 || startFactor <= 0)
      throw new NnError(
        'INVALID_ARGUMENT',
        'Starting multiplicative factor expected to be greater than 0 and less or equal to 1.',
      );
    if (endFactor > 1.0 || endFactor < 0)
      throw new NnError('INVALID_ARGUMENT', 'Ending multiplicative factor expected to be between 0 and 1.');
    super(optimizer, opts.lastEpoch);
    this.startFactor = startFactor;
    this.endFactor = endFactor;
    this.totalIters = totalIters;
    this.initialStep();
  }

  getLr(): number[] {
    const lrs = groupsOf(this.optimizer).map((g) => g.lr);
    const { lastEpoch: e, startFactor: s, endFactor: f, totalIters: n } = this;
    if (e === 0) return lrs.map((lr) => lr * s);
    if (e > n) return lrs;
    return lrs.map((lr) => lr * (1 + (f - s) / (n * s + (e - 1) * (f - s))));
  }

  protected override getClosedFormLr(): number[] {
    const { lastEpoch: e, startFactor: s, endFactor: f, totalIters: n } = this;
    return this.baseLrs.map((base) => base * (s + ((f - s) * Math.min(n, e)) / n));
  }
}
