import type { Pair, Tensor } from '@wiregrad/autograd';
import { adaptiveAvgPool2d, avgPool2d, maxPool2d } from '../functional/pooling.js';
import { Module } from '../module.js';

const pyRepr = (v: Pair | readonly (number | null)[] | null): string =>
  v === null
    ? 'None'
    : typeof v === 'number'
      ? String(v)
      : `(${v.map((x) => (x === null ? 'None' : String(x))).join(', ')})`;
const pyBool = (b: boolean) => (b ? 'True' : 'False');

export interface MaxPool2dOptions<R extends boolean> {
  stride?: Pair;
  padding?: Pair;
  dilation?: Pair;
  ceilMode?: boolean;
  /** also return the flat index of each maximum (forward gives [values, indices]) */
  returnIndices?: R;
}

/** Max over kernelSize windows; stride defaults to the kernel size. */
export class MaxPool2d<R extends boolean = false> extends Module<[Tensor], R extends true ? [Tensor, Tensor] : Tensor> {
  readonly stride: Pair;
  readonly padding: Pair;
  readonly dilation: Pair;
  readonly ceilMode: boolean;
  readonly returnIndices: R;

  constructor(
    readonly kernelSize: Pair,
    opts: MaxPool2dOptions<R> = {},
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
      ? maxPool2d(x, this.kernelSize, { ...opts, returnIndices: true })
      : maxPool2d(x, this.kernelSize, opts);
    return out as R extends true ? [Tensor, Tensor] : Tensor;
  }

  override extraRepr(): string {
    return `kernel_size=${pyRepr(this.kernelSize)}, stride=${pyRepr(this.stride)}, padding=${pyRepr(this.padding)}, dilation=${pyRepr(this.dilation)}, ceil_mode=${pyBool(this.ceilMode)}`;
  }
}

/** Mean over kernelSize windows; stride defaults to the kernel size. */
export class AvgPool2d extends Module {
  readonly stride: Pair;
  readonly padding: Pair;
  readonly ceilMode: boolean;
  readonly countIncludePad: boolean;
  readonly divisorOverride: number | undefined;

  constructor(
    readonly kernelSize: Pair,
    opts: {
      stride?: Pair;
      padding?: Pair;
      ceilMode?: boolean;
      countIncludePad?: boolean;
      divisorOverride?: number;
    } = {},
  ) {
    super();
    this.stride = opts.stride ?? kernelSize;
    this.padding = opts.padding ?? 0;
    this.ceilMode = opts.ceilMode ?? false;
    this.countIncludePad = opts.countIncludePad ?? true;
    this.divisorOverride = opts.divisorOverride;
  }

  forward(x: Tensor): Tensor {
    const { stride, padding, ceilMode, countIncludePad, divisorOverride } = this;
    return avgPool2d(x, this.kernelSize, {
      stride,
      padding,
      ceilMode,
      countIncludePad,
      ...(divisorOverride !== undefined && { divisorOverride }),
    });
  }

  override extraRepr(): string {
    return `kernel_size=${pyRepr(this.kernelSize)}, stride=${pyRepr(this.stride)}, padding=${pyRepr(this.padding)}`;
  }
}

/** Averages to a fixed output size (null keeps that dim). */
export class AdaptiveAvgPool2d extends Module {
  constructor(readonly outputSize: number | readonly [number | null, number | null]) {
    super();
  }

  forward(x: Tensor): Tensor {
    return adaptiveAvgPool2d(x, this.outputSize);
  }

  override extraRepr(): string {
    return `output_size=${pyRepr(this.outputSize)}`;
  }
}
