import type { Tensor } from '@wiregrad/autograd';
import { type FactoryOptions, emptyParameter, placeOnDevice } from '../factory.js';
import { linear } from '../functional/linear.js';
import { calculateFanInAndFanOut, kaimingUniform_, uniform_ } from '../init.js';
import { Module } from '../module.js';
import type { Parameter } from '../parameter.js';

/** Returns its input (a placeholder that keeps module lists and state dict keys aligned). */
export class Identity extends Module {
  forward(x: Tensor): Tensor {
    return x;
  }
}

/** y = x Wᵀ + b; weight [out, in], bias [out]; PyTorch's default initialisation (see resetParameters). */
export class Linear extends Module {
  weight: Parameter;
  bias: Parameter | null;

  constructor(
    readonly inFeatures: number,
    readonly outFeatures: number,
    opts: { bias?: boolean } & FactoryOptions = {},
  ) {
    super();
    this.weight = emptyParameter([outFeatures, inFeatures], opts);
    this.bias = opts.bias === false ? null : emptyParameter([outFeatures], opts);
    this.resetParameters();
    placeOnDevice(this, opts);
  }

  /** kaiming_uniform(a = √5) for the weight, i.e. U(±1/√inFeatures); the bias U(±1/√fanIn), as torch.nn.Linear. */
  resetParameters(): void {
    kaimingUniform_(this.weight, { a: Math.sqrt(5) });
    if (this.bias) {
      const [fanIn] = calculateFanInAndFanOut(this.weight);
      const bound = fanIn > 0 ? 1 / Math.sqrt(fanIn) : 0;
      uniform_(this.bias, -bound, bound);
    }
  }

  forward(x: Tensor): Tensor {
    return linear(x, this.weight, this.bias);
  }

  override extraRepr(): string {
    return `in_features=${this.inFeatures}, out_features=${this.outFeatures}, bias=${this.bias ? 'True' : 'False'}`;
  }
}
