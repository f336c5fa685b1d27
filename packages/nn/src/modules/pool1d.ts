import type { Tensor } from '@wiregrad/autograd';
import { avgPool1d, maxPool1d } from '../functional/pool1d.js';
import { Module } from '../module.js';
import { MaxPoolNd } from './pooling.js';

export interface MaxPool1dOptions<R extends boolean> {
  stride?: number;
  padding?: number;
  dilation?: number;
  ceilMode?: boolean;
  /** also return the index in L of each maximum (forward gives [values, indices]) */
  returnIndices?: R;
}

/** Max over windows of kernelSize along L of [N, C, L] (or [C, L]); stride defaults to the kernel size. */
export class MaxPool1d<R extends boolean = false> extends MaxPoolNd<number, R> {
  constructor(kernelSize: number, opts: MaxPool1dOptions<R> = {}) {
    super(kernelSize, opts, { padding: 0, dilation: 1 });
  }

  protected pool(
    x: Tensor,
    settings: { stride: number; padding: number; dilation: number; ceilMode: boolean },
    returnIndices: boolean,
  ): Tensor | [Tensor, Tensor] {
    return returnIndices
      ? maxPool1d(x, this.kernelSize, { ...settings, returnIndices: true })
      : maxPool1d(x, this.kernelSize, settings);
  }
}

/** The mean over windows of kernelSize along L of [N, C, L] (or [C, L]). */
export class AvgPool1d extends Module {
  readonly stride: number;
  readonly padding: number;
  readonly ceilMode: boolean;
  readonly countIncludePad: boolean;

  constructor(
    readonly kernelSize: number,
    opts: { stride?: number; padding?: number; ceilMode?: boolean; countIncludePad?: boolean } = {},
  ) {
    super();
    this.stride = opts.stride ?? kernelSize;
    this.padding = opts.padding ?? 0;
    this.ceilMode = opts.ceilMode ?? false;
    this.countIncludePad = opts.countIncludePad ?? true;
  }

  forward(x: Tensor): Tensor {
    return avgPool1d(x, this.kernelSize, {
      stride: this.stride,
      padding: this.padding,
      ceilMode: this.ceilMode,
      countIncludePad: this.countIncludePad,
    });
  }

  override extraRepr(): string {
    return `kernel_size=(${this.kernelSize},), stride=(${this.stride},), padding=(${this.padding},)`;
  }
}
