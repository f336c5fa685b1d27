import { NnError } from '../../errors.js';
import { LRScheduler, groupsOf, ownState } from './lrScheduler.js';

/**
 * Steps every scheduler of the list at each step() (PyTorch 1.13's ChainedScheduler): their
 * chainable getLr forms multiply, e.g. a warm-up LinearLR with an ExponentialLR decay.
 */
export class ChainedScheduler extends LRScheduler {
  readonly schedulers: LRScheduler[];

  constructor(schedulers: LRScheduler[]) {
    if (schedulers.length === 0)
      throw new NnError('INVALID_ARGUMENT', 'ChainedScheduler expects at least one scheduler');
    schedulers.forEach((s, i) => {
      if (s.optimizer !== schedulers[0]!.optimizer)
        throw new NnError(
          'INVALID_ARGUMENT',
          `ChainedScheduler expects all schedulers to belong to the same optimizer, but got schedulers at index 0 and ${i} to be different`,
        );
    });
    super(schedulers[0]!.optimizer);
    this.schedulers = [...schedulers];
    this.lastLr = groupsOf(this.optimizer).map((g) => g.lr);
  }

  getLr(): number[] {
    return groupsOf(this.optimizer).map((g) => g.lr);
  }

  override step(): void {
    for (const s of this.schedulers) s.step();
    this.lastLr = groupsOf(this.optimizer).map((g) => g.lr);
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
