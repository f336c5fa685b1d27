import { NnError } from '../../errors.js';
import type { Optimizer } from '../optimizer.js';
import { LRScheduler, groupsOf } from './lrScheduler.js';

export interface CyclicLROptions {
  stepSizeUp?: number;
  stepSizeDown?: number;
  mode?: 'triangular' | 'triangular2' | 'exp_range';
  gamma?: number;
  /** a custom amplitude scaling (replaces `mode`'s), of the cycle number or the iteration (`scaleMode`) */
  scaleFn?: (x: number) => number;
  scaleMode?: 'cycle' | 'iterations';
  cycleMomentum?: boolean;
  baseMomentum?: number | number[];
  maxMomentum?: number | number[];
  lastEpoch?: number;
}

/**
 * Cyclical learning rates (Smith 2017): the lr goes from baseLr up to maxLr over stepSizeUp
 * iterations and back over stepSizeDown, the amplitude scaled per cycle (triangular: 1,
 * triangular2: halved each cycle) or per iteration (exp_range: gamma^iteration); momentum
 * cycles the other way between maxMomentum and baseMomentum. Step it after every batch.
 * PyTorch 1.13's CyclicLR: the constructor sets the groups' lr to baseLr (and momentum to
 * baseMomentum) when starting fresh.
 */
export class CyclicLR extends LRScheduler {
  readonly maxLrs: number[];
  readonly totalSize: number;
  readonly stepRatio: number;
  readonly mode: string;
  readonly gamma: number;
  readonly scaleMode: 'cycle' | 'iterations';
  readonly cycleMomentum: boolean;
  readonly baseMomentums: number[];
  readonly maxMomentums: number[];
  private readonly scaleFn: (x: number) => number;

  constructor(optimizer: Optimizer, baseLr: number | number[], maxLr: number | number[], opts: CyclicLROptions = {}) {
    const { stepSizeUp = 2000, mode = 'triangular', gamma = 1, cycleMomentum = true, lastEpoch = -1 } = opts;
    const groups = groupsOf(optimizer);
    const perGroup = (name: string, v: number | number[]): number[] => {
      if (!Array.isArray(v)) return groups.map(() => v);
      if (v.length !== groups.length)
        throw new NnError('INVALID_ARGUMENT', `expected ${groups.length} values for ${name}, got ${v.length}`);
      return [...v];
    };
    const baseLrs = perGroup('base_lr', baseLr);
    if (lastEpoch === -1) groups.forEach((g, i) => (g.lr = baseLrs[i]!));
    const maxLrs = perGroup('max_lr', maxLr);
    const stepSizeDown = opts.stepSizeDown ?? stepSizeUp;
    if (!['triangular', 'triangular2', 'exp_range'].includes(mode) && opts.scaleFn === undefined)
      throw new NnError('INVALID_ARGUMENT', 'mode is invalid and scale_fn is None');
    let momentums: [number[], number[]] | null = null;
    if (cycleMomentum) {
      if (!('momentum' in (optimizer.defaults as object)))
        throw new NnError('INVALID_ARGUMENT', 'optimizer must support momentum with `cycle_momentum` option enabled');
      const base = perGroup('base_momentum', opts.baseMomentum ?? 0.8);
      if (lastEpoch === -1) groups.forEach((g, i) => (g.momentum = base[i]!));
      momentums = [groups.map((g) => g.momentum as number), perGroup('max_momentum', opts.maxMomentum ?? 0.9)];
    }
    super(optimizer, lastEpoch);
    this.maxLrs = maxLrs;
    this.totalSize = stepSizeUp + stepSizeDown;
    this.stepRatio = stepSizeUp / this.totalSize;
    this.mode = mode;
    this.gamma = gamma;
    this.cycleMomentum = cycleMomentum;
    [this.baseMomentums, this.maxMomentums] = momentums ?? [[], []];
    if (opts.scaleFn) {
      this.scaleFn = opts.scaleFn;
      this.scaleMode = opts.scaleMode ?? 'cycle';
    } else if (mode === 'exp_range') {
      this.scaleFn = (x) => this.gamma ** x;
      this.scaleMode = 'iterations';
    } else {
      this.scaleFn = mode === 'triangular2' ? (x) => 1 / 2.0 ** (x - 1) : () => 1;
      this.scaleMode = 'cycle';
    }
    this.initialStep();
    this.baseLrs = baseLrs;
  }

  /** The lrs at iteration lastEpoch; with cycleMomentum, sets the groups' momentum too (as PyTorch's get_lr does). */
  getLr(): number[] {
    const cycle = Math.floor(1 + this.lastEpoch / this.totalSize);
    const x = 1 + this.lastEpoch / this.totalSize - cycle;
    const scaleFactor = x <= this.stepRatio ? x / this.stepRatio : (x - 1) / (this.stepRatio - 1);
    const scale = this.scaleFn(this.scaleMode === 'cycle' ? cycle : this.lastEpoch);
    const lrs = this.baseLrs.map((base, i) => base + (this.maxLrs[i]! - base) * scaleFactor * scale);
    if (this.cycleMomentum) {
      groupsOf(this.optimizer).forEach((g, i) => {
        const [base, max] = [this.baseMomentums[i]!, this.maxMomentums[i]!];
        g.momentum = max - (max - base) * scaleFactor * scale;
      });
    }
    return lrs;
  }
}
