import type { Pair, Tensor } from '@wiregrad/autograd';
import { NnError } from '../errors.js';
import { type FactoryOptions, emptyParameter, placeOnDevice } from '../factory.js';
import { convTranspose1d, convTranspose2d } from '../functional/convTranspose.js';
import { Module } from '../module.js';
import { checkGroups, pyTuple, resetConvParameters, tuple } from './conv.js';
import type { Parameter } from '../parameter.js';

export interface ConvTransposeModuleOptions<P> extends FactoryOptions {
  stride?: P;
  padding?: P;
  outputPadding?: P;
  groups?: number;
  bias?: boolean;
  dilation?: P;
}

/**
 * PyTorch's _ConvTransposeNd: weight [in, out/groups, ...kernel] and bias [out], initialised as
 * _ConvNd does (kaiming_uniform(a = √5), the bias U(±1/√fanIn) with fanIn from the weight's
 * dim 1: out/groups · kernel). See Note [Transposed convolution].
 */
abstract class ConvTransposeNd extends Module<[x: Tensor, outputSize?: readonly number[]]> {
  weight: Parameter;
  bias: Parameter | null;
  readonly kernelSize: number[];
  readonly stride: number[];
  readonly padding: number[];
  readonly outputPadding: number[];
  readonly dilation: number[];
  readonly groups: number;

  constructor(
    readonly inChannels: number,
    readonly outChannels: number,
    kernelSize: Pair,
    dims: number,
    opts: ConvTransposeModuleOptions<Pair>,
  ) {
    super();
    const groups = opts.groups ?? 1;
    checkGroups(inChannels, outChannels, groups);
    this.kernelSize = tuple(kernelSize, dims);
    this.stride = tuple(opts.stride ?? 1, dims);
    this.padding = tuple(opts.padding ?? 0, dims);
    this.outputPadding = tuple(opts.outputPadding ?? 0, dims);
    this.dilation = tuple(opts.dilation ?? 1, dims);
    this.groups = groups;
    this.weight = emptyParameter([inChannels, outChannels / groups, ...this.kernelSize], opts);
    this.bias = opts.bias === false ? null : emptyParameter([outChannels], opts);
    this.resetParameters();
    placeOnDevice(this, opts);
  }

  resetParameters(): void {
    resetConvParameters(this.weight, this.bias);
  }

  /**
   * The outputPadding that makes the output `outputSize` (its spatial sizes, or the full shape),
   * or the module's own without one (PyTorch's _ConvTransposeNd._output_padding).
   */
  protected outputPaddingFor(x: Tensor, outputSize: readonly number[] | undefined): number[] {
    if (outputSize === undefined) return this.outputPadding;
    const dims = this.kernelSize.length;
    const nonSpatial = x.ndim === dims + 2 ? 2 : 1;
    const size = outputSize.length === nonSpatial + dims ? outputSize.slice(nonSpatial) : [...outputSize];
    if (size.length !== dims)
      throw new NnError(
        'INVALID_ARGUMENT',
        `ConvTranspose${dims}D: for ${x.ndim}D input, output_size must have ${dims} or ${nonSpatial + dims} elements (got ${outputSize.length})`,
      );
    const spatial = x.shape.slice(nonSpatial);
    const minSizes = spatial.map(
      (n, d) => (n - 1) * this.stride[d]! - 2 * this.padding[d]! + this.dilation[d]! * (this.kernelSize[d]! - 1) + 1,
    );
    const maxSizes = minSizes.map((m, d) => m + this.stride[d]! - 1);
    if (size.some((n, d) => n < minSizes[d]! || n > maxSizes[d]!))
      throw new NnError(
        'INVALID_ARGUMENT',
        `requested an output size of [${outputSize.join(', ')}], but valid sizes range from [${minSizes.join(', ')}] to [${maxSizes.join(', ')}] (for an input of [${spatial.join(', ')}])`,
      );
    return size.map((n, d) => n - minSizes[d]!);
  }

  override extraRepr(): string {
    let s = `${this.inChannels}, ${this.outChannels}, kernel_size=${pyTuple(this.kernelSize)}, stride=${pyTuple(this.stride)}`;
    if (this.padding.some((p) => p !== 0)) s += `, padding=${pyTuple(this.padding)}`;
    if (this.dilation.some((d) => d !== 1)) s += `, dilation=${pyTuple(this.dilation)}`;
    if (this.outputPadding.some((p) => p !== 0)) s += `, output_padding=${pyTuple(this.outputPadding)}`;
    if (this.groups !== 1) s += `, groups=${this.groups}`;
    if (!this.bias) s += ', bias=False';
    return s;
  }
}

/** Transposed 1-D convolution over [N, C, L] (or [C, L]): the adjoint of Conv1d. */
export class ConvTranspose1d extends ConvTransposeNd {
  constructor(
    inChannels: number,
    outChannels: number,
    kernelSize: number,
    opts: ConvTransposeModuleOptions<number> = {},
  ) {
    super(inChannels, outChannels, kernelSize, 1, opts);
  }

  /** `outputSize` ([L] or the full shape) picks the outputPadding, as PyTorch's forward(input, output_size). */
  forward(x: Tensor, outputSize?: readonly number[]): Tensor {
    return convTranspose1d(x, this.weight, this.bias, {
      stride: this.stride[0]!,
      padding: this.padding[0]!,
      outputPadding: this.outputPaddingFor(x, outputSize)[0]!,
      groups: this.groups,
      dilation: this.dilation[0]!,
    });
  }
}

/** Transposed 2-D convolution over [N, C, H, W] (or [C, H, W]): the adjoint of Conv2d, e.g. a learnt upsampling. */
export class ConvTranspose2d extends ConvTransposeNd {
  constructor(inChannels: number, outChannels: number, kernelSize: Pair, opts: ConvTransposeModuleOptions<Pair> = {}) {
    super(inChannels, outChannels, kernelSize, 2, opts);
  }

  /** `outputSize` ([H, W] or the full shape) picks the outputPadding, as PyTorch's forward(input, output_size). */
  forward(x: Tensor, outputSize?: readonly number[]): Tensor {
    const pair = (v: number[]) => v as [number, number];
    return convTranspose2d(x, this.weight, this.bias, {
      stride: pair(this.stride),
      padding: pair(this.padding),
      outputPadding: pair(this.outputPaddingFor(x, outputSize)),
      groups: this.groups,
      dilation: pair(this.dilation),
    });
  }
}
