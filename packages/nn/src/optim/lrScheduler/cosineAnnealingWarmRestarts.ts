import { NnError } from '../../errors.js';
import type { Optimizer } from '../optimizer.js';
import { LRScheduler, groupsOf } from './lrScheduler.js';

/**
 * SGDR: cosine annealing from the base lr to etaMin over T_i epochs, then a restart; the
 * first period is t0, each next one tMult times longer. `step(epoch)` takes fractional epochs
 * (a batch's position within the epoch), as PyTorch's does.
 */
export class CosineAnnealingWarmRestarts extends LRScheduler {
  readonly t0: number;
  readonly tMult: number;
  readonly etaMin: number;
  tI: number;
  tCur: number;

  constructor(optimizer: Optimizer, t0: number, opts: { tMult?: number; etaMin?: number; lastEpoch?: number } = {}) {
    const { tMult = 1, etaMin = 0, lastEpoch = -1 } = opts;
    if (!Number.isInteger(t0) || t0 <= 0)
      throw new NnError('INVALID_ARGUMENT', `Expected positive integer T_0, but got ${t0}`);
    if (!Number.isInteger(tMult) || tMult < 1)
      throw new NnError('INVALID_ARGUMENT', `Expected integer T_mult >= 1, but got ${tMult}`);
    super(optimizer, lastEpoch);
    this.t0 = t0;
    this.tI = t0;
    this.tMult = tMult;
    this.etaMin = etaMin;
    this.tCur = lastEpoch;
    this.initialStep();
  }

  getLr(): number[] {
    const cos = 1 + Math.cos((Math.PI * this.tCur) / this.tI);
    return this.baseLrs.map((base) => this.etaMin + ((base - this.etaMin) * cos) / 2);
  }

  override step(epoch?: number): void {
    this.stepCount++;
    if (epoch === undefined && this.lastEpoch < 0) epoch = 0;
    if (epoch === undefined) {
      epoch = this.lastEpoch + 1;
      this.tCur += 1;
      if (this.tCur >= this.tI) {
        this.tCur -= this.tI;
        this.tI *= this.tMult;
      }
    } else {
      if (epoch < 0) throw new NnError('INVALID_ARGUMENT', `Expected non-negative epoch, but got ${epoch}`);
      if (epoch >= this.t0) {
        if (this.tMult === 1) {
          this.tCur = epoch % this.t0;
        } else {
          const n = Math.trunc(Math.log((epoch / this.t0) * (this.tMult - 1) + 1) / Math.log(this.tMult));
          this.tCur = epoch - (this.t0 * (this.tMult ** n - 1)) / (this.tMult - 1);
          this.tI = this.t0 * this.tMult ** n;
        }
      } else {
        this.tI = this.t0;
        this.tCur = epoch;
      }
    }
    this.lastEpoch = Math.floor(epoch);
    const lrs = this.getLr();
    groupsOf(this.optimizer).forEach((g, i) => (g.lr = lrs[i]!));
    this.lastLr = groupsOf(this.optimizer).map((g) => g.lr);
  }
}
