import { NnError } from '../../errors.js';
import type { Optimizer } from '../optimizer.js';
import { LRScheduler, groupsOf, ownState } from './lrScheduler.js';

/** Bisect right: how many of the sorted `xs` are <= x. */
const bisectRight = (xs: readonly number[], x: number): number => xs.filter((m) => m <= x).length;

/**
 * Runs `schedulers` one after another, switching at the `milestones` epochs (one fewer than
 * schedulers); at each milestone the next one starts from its closed form at epoch 0
 * (PyTorch 1.13's SequentialLR: the constructor resets the lr to initialLr and undoes the
 * construction steps of all but the first).
 */
export class SequentialLR extends LRScheduler {
  readonly schedulers: LRScheduler[];
  readonly milestones: number[];

  constructor(
    optimizer: Optimizer,
    schedulers: LRScheduler[],
    milestones: number[],
    opts: { lastEpoch?: number } = {},
  ) {
    schedulers.forEach((s, i) => {
      if (s.optimizer !== optimizer)
        throw new NnError(
          'INVALID_ARGUMENT',
          `Sequential Schedulers expects all schedulers to belong to the same optimizer, but got schedulers at index ${i} to be different than the optimizer passed in.`,
        );
    });
    if (milestones.length !== schedulers.length - 1)
      throw new NnError(
        'INVALID_ARGUMENT',
        `Sequential Schedulers expects number of schedulers provided to be one more than the number of milestone points, but got number of schedulers ${schedulers.length} and the number of milestones to be equal to ${milestones.length}`,
      );
    super(optimizer);
    this.schedulers = [...schedulers];
    this.milestones = [...milestones];
    this.lastEpoch = (opts.lastEpoch ?? -1) + 1;
    for (const g of groupsOf(optimizer)) g.lr = g.initialLr as number;
    for (const s of this.schedulers) s.lastEpoch -= 1;
    this.schedulers[0]!.initialStep();
    this.lastLr = this.schedulers[0]!.getLastLr();
  }

  getLr(): number[] {
    return groupsOf(this.optimizer).map((g) => g.lr);
  }

  override step(): void {
    this.lastEpoch += 1;
    const idx = bisectRight(this.milestones, this.lastEpoch);
    const scheduler = this.schedulers[idx]!;
    if (idx > 0 && this.milestones[idx - 1] === this.lastEpoch) scheduler.step(0);
    else scheduler.step();
    this.lastLr = scheduler.getLastLr();
  }

  /** Its own fields, and each scheduler's state dict under `schedulers`. */
  override stateDict(): Record<string, unknown> {
    return { ...ownState(this, ['optimizer', 'schedulers']), schedulers: this.schedulers.map((s) => s.stateDict()) };
  }

  override loadStateDict(sd: Record<string, unknown>): void {
    const { schedulers, ...own } = sd as { schedulers: Record<string, unknown>[] };
    super.loadStateDict(own);
    schedulers.forEach((s, i) => this.schedulers[i]!.loadStateDict(s));
  }
}
