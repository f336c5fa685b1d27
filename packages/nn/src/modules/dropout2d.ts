import type { Tensor } from '@wiregrad/autograd';
import { NnError } from '../errors.js';
import { dropout2d } from '../functional/featureDropout.js';
import { Module } from '../module.js';

/** Zeroes whole channels with probability p (scaling the rest by 1/(1 - p)) in training mode; the identity in eval mode. */
export class Dropout2d extends Module {
  constructor(readonly p = 0.5) {
    super();
    if (!(p >= 0 && p <= 1))
      throw new NnError('INVALID_ARGUMENT', `dropout probability has to be between 0 and 1, but got ${p}`);
  }

  forward(x: Tensor): Tensor {
    return dropout2d(x, this.p, this.training);
  }

  override extraRepr(): string {
    return `p=${this.p}, inplace=False`;
  }
}
