import type { Tensor } from '@wiregrad/autograd';
import { type FactoryOptions, emptyParameter, placeOnDevice } from '../factory.js';
import { pyFloat } from '../errors.js';
import { layerNorm } from '../functional/normalization.js';
import { ones_, zeros_ } from '../init.js';
import { Module } from '../module.js';
import type { Parameter } from '../parameter.js';

/** Normalises over the trailing `normalizedShape` dims; weight ones and bias zeros when elementwiseAffine. */
export class LayerNorm extends Module {
  readonly normalizedShape: number[];
  readonly eps: number;
  readonly elementwiseAffine: boolean;
  weight: Parameter | null;
  bias: Parameter | null;

  constructor(
    normalizedShape: number | number[],
    opts: { eps?: number; elementwiseAffine?: boolean; bias?: boolean } & FactoryOptions = {},
  ) {
    super();
    this.normalizedShape = typeof normalizedShape === 'number' ? [normalizedShape] : [...normalizedShape];
    this.eps = opts.eps ?? 1e-5;
    this.elementwiseAffine = opts.elementwiseAffine ?? true;
    this.weight = this.elementwiseAffine ? (ones_(emptyParameter(this.normalizedShape, opts)) as Parameter) : null;
    this.bias =
      this.elementwiseAffine && opts.bias !== false
        ? (zeros_(emptyParameter(this.normalizedShape, opts)) as Parameter)
        : null;
    placeOnDevice(this, opts);
  }

  forward(x: Tensor): Tensor {
    return layerNorm(x, this.normalizedShape, this.weight, this.bias, this.eps);
  }

  override extraRepr(): string {
    return `(${this.normalizedShape.join(', ')}${this.normalizedShape.length === 1 ? ',' : ''}), eps=${pyFloat(this.eps)}, elementwise_affine=${this.elementwiseAffine ? 'True' : 'False'}`;
  }
}
