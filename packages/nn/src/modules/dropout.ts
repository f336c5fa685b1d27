import type { Tensor } from '@wiregrad/autograd';
import { NnError, pyFloat } from '../errors.js';
import { dropout } from '../functional/dropout.js';
import { Module } from '../module.js';

/** Zeroes elements with probability p (scaling the rest by 1/(1 - p)) in training mode; the identity in eval mode. */
export class Dropout extends Module {
  constructor(readonly p = 0.5) {
    super();
    if (!(p >= 0 && p <= 1))
      throw new NnError('INVALID_ARGUMENT', `dropout probability has to be between 0 and 1, but got ${p}`);
  }

  forward(x: Tensor): Tensor {
    return dropout(x, this.p, this.training);
  }

  override extraRepr(): string {
    return `p=${pyFloat(this.p)}, inplace=False`;
  }
}
