import type { Tensor } from '@wiregrad/autograd';
import { NnError, pyFloat } from '../errors.js';
import { type FactoryOptions, emptyParameter, placeOnDevice } from '../factory.js';
import { groupNorm } from '../functional/groupNorm.js';
import { ones_, zeros_ } from '../init.js';
import { Module } from '../module.js';
import type { Parameter } from '../parameter.js';

/** Group norm over [N, C, *]: numGroups groups of channels, with a per-channel weight (ones) and bias (zeros) when affine. */
export class GroupNorm extends Module {
  readonly eps: number;
  readonly affine: boolean;
  weight: Parameter | null;
  bias: Parameter | null;

  constructor(
    readonly numGroups: number,
    readonly numChannels: number,
    opts: { eps?: number; affine?: boolean } & FactoryOptions = {},
  ) {
    super();
    if (numChannels % numGroups !== 0)
      throw new NnError('INVALID_ARGUMENT', 'num_channels must be divisible by num_groups');
    this.eps = opts.eps ?? 1e-5;
    this.affine = opts.affine ?? true;
    this.weight = this.affine ? (ones_(emptyParameter([numChannels], opts)) as Parameter) : null;
    this.bias = this.affine ? (zeros_(emptyParameter([numChannels], opts)) as Parameter) : null;
    placeOnDevice(this, opts);
  }

  forward(x: Tensor): Tensor {
    return groupNorm(x, this.numGroups, this.weight, this.bias, this.eps);
  }

  override extraRepr(): string {
    return `${this.numGroups}, ${this.numChannels}, eps=${pyFloat(this.eps)}, affine=${this.affine ? 'True' : 'False'}`;
  }
}
