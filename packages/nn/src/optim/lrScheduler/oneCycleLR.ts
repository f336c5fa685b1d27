import { NnError } from '../../errors.js';
import type { Optimizer } from '../optimizer.js';
import { type GroupOptions, LRScheduler, groupsOf } from './lrScheduler.js';

export interface OneCycleLROptions {
  totalSteps?: number;
  epochs?: number;
  stepsPerEpoch?: number;
  pctStart?: number;
  annealStrategy?: 'cos' | 'linear';
  cycleMomentum?: boolean;
  baseMomentum?: number | number[];
  maxMomentum?: number | number[];
  divFactor?: number;
  finalDivFactor?: number;
  threePhase?: boolean;
  lastEpoch?: number;
}

interface Phase {
  endStep: number;
  startLr: string;
  endLr: string;
  startMomentum: string;
  endMomentum: string;
}

/**
 * The 1cycle policy: lr from maxLr/divFactor up to maxLr over pctStart of totalSteps, then
 * down to initialLr/finalDivFactor (threePhase: back to initialLr first); momentum (or Adam's
 * beta1) cycles the other way between maxMomentum and baseMomentum. PyTorch 1.13's phases.
 */
export class OneCycleLR extends LRScheduler {
  readonly totalSteps: number;
  readonly cycleMomentum: boolean;
  private readonly useBeta1: boolean;
  private readonly phases: Phase[];
  private readonly anneal: 'cos' | 'linear';

  constructor(optimizer: Optimizer, maxLr: number | number[], opts: OneCycleLROptions = {}) {
    const { totalSteps, epochs, stepsPerEpoch, pctStart = 0.3, annealStrategy = 'cos', cycleMomentum = true } = opts;
    const {
      baseMomentum = 0.85,
      maxMomentum = 0.95,
      divFactor = 25,
      finalDivFactor = 1e4,
      threePhase = false,
      lastEpoch = -1,
    } = opts;
    let total: number;
    if (totalSteps === undefined && epochs === undefined && stepsPerEpoch === undefined) {
      throw new NnError('INVALID_ARGUMENT', 'You must define either total_steps OR (epochs AND steps_per_epoch)');
    } else if (totalSteps !== undefined) {
      if (!(totalSteps > 0) || !Number.isInteger(totalSteps))
        throw new NnError('INVALID_ARGUMENT', `Expected positive integer total_steps, but got ${totalSteps}`);
      total = totalSteps;
    } else {
      if (!(epochs! > 0) || !Number.isInteger(epochs))
        throw new NnError('INVALID_ARGUMENT', `Expected positive integer epochs, but got ${epochs}`);
      if (!(stepsPerEpoch! > 0) || !Number.isInteger(stepsPerEpoch))
        throw new NnError('INVALID_ARGUMENT', `Expected positive integer steps_per_epoch, but got ${stepsPerEpoch}`);
      total = epochs! * stepsPerEpoch!;
    }
    if (!(pctStart >= 0 && pctStart <= 1))
      throw new NnError('INVALID_ARGUMENT', `Expected float between 0 and 1 pct_start, but got ${pctStart}`);
    if (annealStrategy !== 'cos' && annealStrategy !== 'linear') {
      throw new NnError(
        'INVALID_ARGUMENT',
        `anneal_strategy must by one of 'cos' or 'linear', instead got ${String(annealStrategy)}`,
      );
    }
    const groups = groupsOf(optimizer);
    const perGroup = (name: string, v: number | number[]): number[] => {
      if (!Array.isArray(v)) return groups.map(() => v);
      if (v.length !== groups.length)
        throw new NnError('INVALID_ARGUMENT', `expected ${groups.length} values for ${name}, got ${v.length}`);
      return v;
    };
    const maxLrs = perGroup('max_lr', maxLr);
    if (lastEpoch === -1) {
      groups.forEach((g, i) => {
        g.initialLr = maxLrs[i]! / divFactor;
        g.maxLr = maxLrs[i]!;
        g.minLr = (g.initialLr as number) / finalDivFactor;
      });
    }
    const useBeta1 = 'betas' in optimizer.defaults;
    if (cycleMomentum) {
      if (!('momentum' in optimizer.defaults) && !useBeta1)
        throw new NnError('INVALID_ARGUMENT', 'optimizer must support momentum with `cycle_momentum` option enabled');
      const maxM = perGroup('max_momentum', maxMomentum);
      const baseM = perGroup('base_momentum', baseMomentum);
      if (lastEpoch === -1) {
        groups.forEach((g, i) => {
          setMomentum(g, useBeta1, maxM[i]!);
          g.maxMomentum = maxM[i]!;
          g.baseMomentum = baseM[i]!;
        });
      }
    }
    super(optimizer, lastEpoch);
    this.totalSteps = total;
    this.cycleMomentum = cycleMomentum;
    this.useBeta1 = useBeta1;
    this.anneal = annealStrategy;
    const up = pctStart * total - 1;
    this.phases = threePhase
      ? [
          {
            endStep: up,
            startLr: 'initialLr',
            endLr: 'maxLr',
            startMomentum: 'maxMomentum',
            endMomentum: 'baseMomentum',
          },
          {
            endStep: 2 * pctStart * total - 2,
            startLr: 'maxLr',
            endLr: 'initialLr',
            startMomentum: 'baseMomentum',
            endMomentum: 'maxMomentum',
          },
          {
            endStep: total - 1,
            startLr: 'initialLr',
            endLr: 'minLr',
            startMomentum: 'maxMomentum',
            endMomentum: 'maxMomentum',
          },
        ]
      : [
          {
            endStep: up,
            startLr: 'initialLr',
            endLr: 'maxLr',
            startMomentum: 'maxMomentum',
            endMomentum: 'baseMomentum',
          },
          {
            endStep: total - 1,
            startLr: 'maxLr',
            endLr: 'minLr',
            startMomentum: 'baseMomentum',
            endMomentum: 'maxMomentum',
          },
        ];
    this.initialStep();
  }

  private annealFn(start: number, end: number, pct: number): number {
    if (this.anneal === 'linear') return (end - start) * pct + start;
    return end + ((start - end) / 2.0) * (Math.cos(Math.PI * pct) + 1);
  }

  getLr(): number[] {
    const stepNum = this.lastEpoch;
    if (stepNum > this.totalSteps)
      throw new NnError(
        'INVALID_STATE',
        `Tried to step ${stepNum + 1} times. The specified number of total steps is ${this.totalSteps}`,
      );
    return groupsOf(this.optimizer).map((g) => {
      let startStep = 0;
      for (let i = 0; i < this.phases.length; i++) {
        const phase = this.phases[i]!;
        if (stepNum <= phase.endStep || i === this.phases.length - 1) {
          const pct = (stepNum - startStep) / (phase.endStep - startStep);
          const lr = this.annealFn(g[phase.startLr] as number, g[phase.endLr] as number, pct);
          if (this.cycleMomentum)
            setMomentum(
              g,
              this.useBeta1,
              this.annealFn(g[phase.startMomentum] as number, g[phase.endMomentum] as number, pct),
            );
          return lr;
        }
        startStep = phase.endStep;
      }
      throw new NnError('INVALID_STATE', 'OneCycleLR has no phase');
    });
  }
}

function setMomentum(g: GroupOptions, useBeta1: boolean, m: number): void {
  if (useBeta1) g.betas = [m, ...(g.betas as number[]).slice(1)];
  else g.momentum = m;
}
