import type { Tensor } from '@wiregrad/autograd';
import { Module } from '../module.js';

/** Flattens dims startDim..endDim (default 1..-1: everything but the batch). */
export class Flatten extends Module {
  constructor(
    readonly startDim = 1,
    readonly endDim = -1,
  ) {
    super();
  }

  forward(x: Tensor): Tensor {
    return x.flatten(this.startDim, this.endDim);
  }

  override extraRepr(): string {
    return `start_dim=${this.startDim}, end_dim=${this.endDim}`;
  }
}
