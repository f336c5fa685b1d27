import { NnError } from '../../errors.js';
import type { Optimizer } from '../optimizer.js';
import { LRScheduler } from './lrScheduler.js';

/** lr = base lr × lrLambda(epoch), one function for every group or one per group. */
export class LambdaLR extends LRScheduler {
  private readonly lrLambdas: ((epoch: number) => number)[];

  constructor(
    optimizer: Optimizer,
    lrLambda: ((epoch: number) => number) | ((epoch: number) => number)[],
    opts: { lastEpoch?: number } = {},
  ) {
    super(optimizer, opts.lastEpoch);
    const n = optimizer.paramGroups.length;
    if (Array.isArray(lrLambda)) {
      if (lrLambda.length !== n)
        throw new NnError('INVALID_ARGUMENT', `Expected ${n} lr_lambdas, but got ${lrLambda.length}`);
      this.lrLambdas = [...lrLambda];
    } else {
      this.lrLambdas = Array.from({ length: n }, () => lrLambda);
    }
    this.initialStep();
  }

  getLr(): number[] {
    return this.baseLrs.map((base, i) => base * this.lrLambdas[i]!(this.lastEpoch));
  }
}
