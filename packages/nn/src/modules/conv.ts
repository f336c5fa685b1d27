import type { Pair, Tensor } from '@wiregrad/autograd';
import { NnError } from '../errors.js';
import { type FactoryOptions, emptyParameter, placeOnDevice } from '../factory.js';
import { conv1d, conv2d } from '../functional/conv.js';
import { calculateFanInAndFanOut, kaimingUniform_, uniform_ } from '../init.js';
import { Module } from '../module.js';
import type { Parameter } from '../parameter.js';

export interface ConvModuleOptions<P> extends FactoryOptions {
  stride?: P;
  padding?: P | 'same' | 'valid';
  dilation?: P;
  groups?: number;
  bias?: boolean;
}

/** A size given as one number or one per dim, as `n` numbers. */
export const tuple = (v: Pair, n: number): number[] => (typeof v === 'number' ? Array<number>(n).fill(v) : [...v]);
/** A size as PyTorch's repr prints a tuple: `(3,)`, `(3, 3)`. */
export const pyTuple = (v: readonly number[]) => `(${v.join(', ')}${v.length === 1 ? ',' : ''})`;

/** PyTorch's _ConvNd checks (also _ConvTransposeNd's): both channel counts divide into the groups. */
export function checkGroups(inChannels: number, outChannels: number, groups: number): void {
  if (inChannels % groups !== 0) throw new NnError('INVALID_ARGUMENT', 'in_channels must be divisible by groups');
  if (outChannels % groups !== 0) throw new NnError('INVALID_ARGUMENT', 'out_channels must be divisible by groups');
}

/**
 * PyTorch's _ConvNd.reset_parameters (also _ConvTransposeNd's): kaiming_uniform(a = √5) on the
 * weight, U(±1/√fanIn) on the bias, fanIn from the weight's dim 1 and kernel.
 */
export function resetConvParameters(weight: Parameter, bias: Parameter | null): void {
  kaimingUniform_(weight, { a: Math.sqrt(5) });
  if (bias) {
    const [fanIn] = calculateFanInAndFanOut(weight);
    const bound = fanIn > 0 ? 1 / Math.sqrt(fanIn) : 0;
    uniform_(bias, -bound, bound);
  }
}

/**
 * PyTorch's _ConvNd: weight [out, in/groups, ...kernel] and bias [out], initialised with
 * kaiming_uniform(a = √5) and U(±1/√fanIn) as torch.nn.Conv*d; PyTorch's argument checks.
 */
abstract class ConvNd extends Module {
  weight: Parameter;
  bias: Parameter | null;
  readonly kernelSize: number[];
  readonly stride: number[];
  readonly padding: number[] | 'same' | 'valid';
  readonly dilation: number[];
  readonly groups: number;

  constructor(
    readonly inChannels: number,
    readonly outChannels: number,
    kernelSize: Pair,
    dims: number,
    opts: ConvModuleOptions<Pair>,
  ) {
    super();
    const groups = opts.groups ?? 1;
    checkGroups(inChannels, outChannels, groups);
    this.kernelSize = tuple(kernelSize, dims);
    this.stride = tuple(opts.stride ?? 1, dims);
    this.dilation = tuple(opts.dilation ?? 1, dims);
    const padding = opts.padding ?? 0;
    if (typeof padding === 'string') {
      if (padding !== 'same' && padding !== 'valid')
        throw new NnError(
          'INVALID_ARGUMENT',
          `Invalid padding string '${String(padding)}', should be one of ['valid', 'same']`,
        );
      if (padding === 'same' && this.stride.some((s) => s !== 1))
        throw new NnError('INVALID_ARGUMENT', "padding='same' is not supported for strided convolutions");
      this.padding = padding;
    } else {
      this.padding = tuple(padding, dims);
    }
    this.groups = groups;
    this.weight = emptyParameter([outChannels, inChannels / groups, ...this.kernelSize], opts);
    this.bias = opts.bias === false ? null : emptyParameter([outChannels], opts);
    this.resetParameters();
    placeOnDevice(this, opts);
  }

  resetParameters(): void {
    resetConvParameters(this.weight, this.bias);
  }

  override extraRepr(): string {
    let s = `${this.inChannels}, ${this.outChannels}, kernel_size=${pyTuple(this.kernelSize)}, stride=${pyTuple(this.stride)}`;
    if (typeof this.padding === 'string') s += `, padding=${this.padding}`;
    else if (this.padding.some((p) => p !== 0)) s += `, padding=${pyTuple(this.padding)}`;
    if (this.dilation.some((d) => d !== 1)) s += `, dilation=${pyTuple(this.dilation)}`;
    if (this.groups !== 1) s += `, groups=${this.groups}`;
    if (!this.bias) s += ', bias=False';
    return s;
  }
}

/** 1-D convolution over [N, C, L] (or [C, L]). */
export class Conv1d extends ConvNd {
  constructor(inChannels: number, outChannels: number, kernelSize: number, opts: ConvModuleOptions<number> = {}) {
    super(inChannels, outChannels, kernelSize, 1, opts);
  }

  forward(x: Tensor): Tensor {
    const padding = typeof this.padding === 'string' ? this.padding : this.padding[0]!;
    return conv1d(x, this.weight, this.bias, {
      stride: this.stride[0]!,
      padding,
      dilation: this.dilation[0]!,
      groups: this.groups,
    });
  }
}

/** 2-D convolution over [N, C, H, W] (or [C, H, W]). */
export class Conv2d extends ConvNd {
  constructor(inChannels: number, outChannels: number, kernelSize: Pair, opts: ConvModuleOptions<Pair> = {}) {
    super(inChannels, outChannels, kernelSize, 2, opts);
  }

  forward(x: Tensor): Tensor {
    const padding = typeof this.padding === 'string' ? this.padding : (this.padding as [number, number]);
    return conv2d(x, this.weight, this.bias, {
      stride: this.stride as [number, number],
      padding,
      dilation: this.dilation as [number, number],
      groups: this.groups,
    });
  }
}
