import { type DType, type DeviceLike, type Tensor, matmul, noGrad, rand, relu } from '@wiregrad/autograd';

/** PyTorch's factory kwargs of a layer's parameters. */
export interface FactoryOptions {
  dtype?: DType;
  device?: DeviceLike;
}
import { Module } from './module.js';

function uniformParam(shape: number[], bound: number, opts: FactoryOptions): Tensor {
  const p = noGrad(() => rand(shape, opts).mul(2 * bound).sub(bound));
  p.requiresGrad = true;
  return p;
}

/**
 * y = x Wᵀ + b, with PyTorch's default init: W and b uniform in ±1/sqrt(inFeatures)
 * (kaiming_uniform with a = sqrt(5) reduces to that bound). `dtype` / `device` like torch's.
 */
export class Linear extends Module {
  readonly weight: Tensor;
  readonly bias: Tensor | null;

  constructor(
    readonly inFeatures: number,
    readonly outFeatures: number,
    opts: { bias?: boolean } & FactoryOptions = {},
  ) {
    super();
    const bound = 1 / Math.sqrt(inFeatures);
    const factory = { dtype: opts.dtype ?? 'float32', device: opts.device ?? 'cpu' };
    this.weight = uniformParam([outFeatures, inFeatures], bound, factory);
    this.bias = opts.bias === false ? null : uniformParam([outFeatures], bound, factory);
  }

  forward(x: Tensor): Tensor {
    const y = matmul(x, this.weight.t());
    return this.bias ? y.add(this.bias) : y;
  }
}

export class ReLU extends Module {
  forward(x: Tensor): Tensor {
    return relu(x);
  }
}

export class Sequential extends Module {
  readonly layers: Module[];

  constructor(...layers: Module[]) {
    super();
    this.layers = layers;
  }

  /** Children are named by position, like PyTorch's Sequential: `0.weight`, `2.bias`... */
  override namedChildren(): [string, Module][] {
    return this.layers.map((m, i) => [String(i), m]);
  }

  forward(x: Tensor): Tensor {
    return this.layers.reduce((h, layer) => layer.forward(h), x);
  }
}
