import type { Tensor } from '@wiregrad/autograd';
import { adaptiveMaxPool2d } from '../functional/adaptiveMaxPool.js';
import { Module } from '../module.js';

type OutputSize = number | readonly [number | null, number | null];

/** The maximum over PyTorch's adaptive windows, to a fixed [oh, ow] (null keeps that dim). */
export class AdaptiveMaxPool2d<R extends boolean = false> extends Module<
  [Tensor],
  R extends true ? [Tensor, Tensor] : Tensor
> {
  readonly returnIndices: R;

  constructor(
    readonly outputSize: OutputSize,
    opts: { returnIndices?: R } = {},
  ) {
    super();
    this.returnIndices = (opts.returnIndices ?? false) as R;
  }

  forward(x: Tensor): R extends true ? [Tensor, Tensor] : Tensor {
    const out = this.returnIndices
      ? adaptiveMaxPool2d(x, this.outputSize, { returnIndices: true })
      : adaptiveMaxPool2d(x, this.outputSize);
    return out as R extends true ? [Tensor, Tensor] : Tensor;
  }

  override extraRepr(): string {
    const size =
      typeof this.outputSize === 'number'
        ? String(this.outputSize)
        : `(${this.outputSize.map((v) => (v === null ? 'None' : String(v))).join(', ')})`;
    return `output_size=${size}`;
  }
}
