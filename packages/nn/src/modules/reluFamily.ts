import type { Tensor } from '@wiregrad/autograd';
import { type FactoryOptions, emptyParameter, placeOnDevice } from '../factory.js';
import { elu, hardswish, leakyRelu, mish, prelu, selu, softplus } from '../functional/reluFamily.js';
import { constant_ } from '../init.js';
import { pyFloat } from '../errors.js';
import { Module } from '../module.js';
import type { Parameter } from '../parameter.js';

/** x for x > 0, negativeSlope x otherwise (default slope 0.01). */
export class LeakyReLU extends Module {
  readonly negativeSlope: number;

  constructor(opts: { negativeSlope?: number } = {}) {
    super();
    this.negativeSlope = opts.negativeSlope ?? 0.01;
  }

  forward(x: Tensor): Tensor {
    return leakyRelu(x, { negativeSlope: this.negativeSlope });
  }

  override extraRepr(): string {
    return `negative_slope=${pyFloat(this.negativeSlope)}`;
  }
}

/** x for x > 0, alpha (eˣ - 1) otherwise (default alpha 1). */
export class ELU extends Module {
  readonly alpha: number;

  constructor(opts: { alpha?: number } = {}) {
    super();
    this.alpha = opts.alpha ?? 1.0;
  }

  forward(x: Tensor): Tensor {
    return elu(x, { alpha: this.alpha });
  }

  override extraRepr(): string {
    return `alpha=${pyFloat(this.alpha)}`;
  }
}

/** scale · elu(x, alpha) with SELU's fixed constants (scale ≈ 1.0507, alpha ≈ 1.6733). */
export class SELU extends Module {
  forward(x: Tensor): Tensor {
    return selu(x);
  }
}

/** log(1 + e^(βx)) / β, linear where βx > threshold (defaults β = 1, threshold = 20). */
export class Softplus extends Module {
  readonly beta: number;
  readonly threshold: number;

  constructor(opts: { beta?: number; threshold?: number } = {}) {
    super();
    this.beta = opts.beta ?? 1;
    this.threshold = opts.threshold ?? 20;
  }

  forward(x: Tensor): Tensor {
    return softplus(x, { beta: this.beta, threshold: this.threshold });
  }

  override extraRepr(): string {
    return `beta=${this.beta}, threshold=${this.threshold}`;
  }
}

/** x tanh(softplus(x)) */
export class Mish extends Module {
  forward(x: Tensor): Tensor {
    return mish(x);
  }
}

/** x · relu6(x + 3) / 6 */
export class Hardswish extends Module {
  forward(x: Tensor): Tensor {
    return hardswish(x);
  }
}

/** LeakyReLU with a learnt slope `weight` [numParameters] (1, or one per channel), initialised to `init` (0.25). */
export class PReLU extends Module {
  readonly numParameters: number;
  readonly init: number;
  weight: Parameter;

  constructor(opts: { numParameters?: number; init?: number } & FactoryOptions = {}) {
    super();
    this.numParameters = opts.numParameters ?? 1;
    this.init = opts.init ?? 0.25;
    this.weight = emptyParameter([this.numParameters], opts);
    this.resetParameters();
    placeOnDevice(this, opts);
  }

  resetParameters(): void {
    constant_(this.weight, this.init);
  }

  forward(x: Tensor): Tensor {
    return prelu(x, this.weight);
  }

  override extraRepr(): string {
    return `num_parameters=${this.numParameters}`;
  }
}
