import type { Tensor } from '@wiregrad/autograd';
import { avgPool1d, maxPool1d } from '../functional/pool1d.js';
import { Module } from '../module.js';

const pyBool = (b: boolean) => (b ? 'True' : 'False');

export interface MaxPool1dOptions<R extends boolean> {
  stride?: number;
  padding?: number;
  dilation?: number;
  ceilMode?: boolean;
  /** also return the index in L of each maximum (forward gives [values, indices]) */
  returnIndices?: R;
}

/** Max over windows of kernelSize along L of [N, C, L] (or [C, L]); stride defaults to the kernel size. */
export class MaxPool1d<R extends boolean = false> extends Module<[Tensor], R extends true ? [Tensor, Tensor] : Tensor> {
  readonly stride: number;
  readonly padding: number;
  readonly dilation: number;
  readonly ceilMode: boolean;
  readonly returnIndices: R;

  constructor(
    readonly kernelSize: number,
    opts: MaxPool1dOptions<R> = {},
  ) {
    super();
    this.stride = opts.stride ?? kernelSize;
    this.padding = opts.padding ?? 0;
    this.dilation = opts.dilation ?? 1;
    this.ceilMode = opts.ceilMode ?? false;
    this.returnIndices = (opts.returnIndices ?? false) as R;
  }

  forward(x: Tensor): R extends true ? [Tensor, Tensor] : Tensor {
    const opts = { stride: this.stride, padding: this.padding, dilation: this.dilation, ceilMode: this.ceilMode };
    const out = this.returnIndices
      ? maxPool1d(x, this.kernelSize, { ...opts, returnIndices: true })
      : maxPool1d(x, this.kernelSize, opts);
    return out as R extends true ? [Tensor, Tensor] : Tensor;
  }

  override extraRepr(): string {
    return `kernel_size=${this.kernelSize}, stride=${this.stride}, padding=${this.padding}, dilation=${this.dilation}, ceil_mode=${pyBool(this.ceilMode)}`;
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
