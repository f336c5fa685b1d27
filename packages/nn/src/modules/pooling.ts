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

/** A max pool's output: the values, or [values, indices] with returnIndices. */
type MaxPoolOutput<R extends boolean> = R extends true ? [Tensor, Tensor] : Tensor;

/** The settings of a max pool; `S` is a size: a number (1d) or a Pair (2d). */
interface MaxPoolSettings<S extends Pair> {
  stride: S;
  padding: S;
  dilation: S;
  ceilMode: boolean;
}

/**
 * PyTorch's _MaxPoolNd: the options, their defaults (stride: the kernel size) and the repr that
 * MaxPool1d and MaxPool2d share; each gives its functional max pool.
 */
export abstract class MaxPoolNd<S extends Pair, R extends boolean> extends Module<[Tensor], MaxPoolOutput<R>> {
  readonly stride: S;
  readonly padding: S;
  readonly dilation: S;
  readonly ceilMode: boolean;
  readonly returnIndices: R;

  constructor(
    readonly kernelSize: S,
    opts: Partial<MaxPoolSettings<S>> & { returnIndices?: R },
    defaults: { padding: S; dilation: S },
  ) {
    super();
    this.stride = opts.stride ?? kernelSize;
    this.padding = opts.padding ?? defaults.padding;
    this.dilation = opts.dilation ?? defaults.dilation;
    this.ceilMode = opts.ceilMode ?? false;
    this.returnIndices = (opts.returnIndices ?? false) as R;
  }

  /** This dimensionality's functional max pool (maxPool1d, maxPool2d). */
  protected abstract pool(x: Tensor, settings: MaxPoolSettings<S>, returnIndices: boolean): Tensor | [Tensor, Tensor];

  forward(x: Tensor): MaxPoolOutput<R> {
    const settings = { stride: this.stride, padding: this.padding, dilation: this.dilation, ceilMode: this.ceilMode };
    return this.pool(x, settings, this.returnIndices) as MaxPoolOutput<R>;
  }

  override extraRepr(): string {
    return `kernel_size=${pyRepr(this.kernelSize)}, stride=${pyRepr(this.stride)}, padding=${pyRepr(this.padding)}, dilation=${pyRepr(this.dilation)}, ceil_mode=${pyBool(this.ceilMode)}`;
  }
}

/** Max over kernelSize windows; stride defaults to the kernel size. */
export class MaxPool2d<R extends boolean = false> extends MaxPoolNd<Pair, R> {
  constructor(kernelSize: Pair, opts: MaxPool2dOptions<R> = {}) {
    super(kernelSize, opts, { padding: 0, dilation: 1 });
  }

  protected pool(x: Tensor, settings: MaxPoolSettings<Pair>, returnIndices: boolean): Tensor | [Tensor, Tensor] {
    return returnIndices
      ? maxPool2d(x, this.kernelSize, { ...settings, returnIndices: true })
      : maxPool2d(x, this.kernelSize, settings);
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
