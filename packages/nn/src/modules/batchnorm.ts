import { type Tensor, ones, zeros } from '@wiregrad/autograd';
import { NnError, pyFloat } from '../errors.js';
import { type FactoryOptions, emptyParameter, placeOnDevice } from '../factory.js';
import { batchNorm } from '../functional/normalization.js';
import { ones_, zeros_ } from '../init.js';
import { Module } from '../module.js';
import type { Parameter } from '../parameter.js';

export interface BatchNormOptions extends FactoryOptions {
  eps?: number;
  /** null: a cumulative moving average (1 / numBatchesTracked) */
  momentum?: number | null;
  affine?: boolean;
  trackRunningStats?: boolean;
}

/**
 * PyTorch's _BatchNorm: weight (ones) and bias (zeros) when affine; buffers `running_mean`
 * (zeros), `running_var` (ones) and `num_batches_tracked` (0, int32 here, int64 in PyTorch)
 * when trackRunningStats. Training mode normalises with batch statistics and updates the
 * running ones (Note [Batch norm]); eval mode uses the running ones.
 */
export abstract class BatchNormBase extends Module {
  readonly eps: number;
  readonly momentum: number | null;
  readonly affine: boolean;
  readonly trackRunningStats: boolean;
  weight: Parameter | null;
  bias: Parameter | null;

  constructor(
    readonly numFeatures: number,
    opts: BatchNormOptions = {},
  ) {
    super();
    this.eps = opts.eps ?? 1e-5;
    this.momentum = opts.momentum === undefined ? 0.1 : opts.momentum;
    this.affine = opts.affine ?? true;
    this.trackRunningStats = opts.trackRunningStats ?? true;
    this.weight = this.affine ? (ones_(emptyParameter([numFeatures], opts)) as Parameter) : null;
    this.bias = this.affine ? (zeros_(emptyParameter([numFeatures], opts)) as Parameter) : null;
    const dtype = opts.dtype ?? 'float32';
    this.registerBuffer('running_mean', this.trackRunningStats ? zeros([numFeatures], { dtype }) : null);
    this.registerBuffer('running_var', this.trackRunningStats ? ones([numFeatures], { dtype }) : null);
    this.registerBuffer('num_batches_tracked', this.trackRunningStats ? zeros([], { dtype: 'int32' }) : null);
    placeOnDevice(this, opts);
  }

  get runningMean(): Tensor | null {
    return this.getBuffer('running_mean');
  }

  get runningVar(): Tensor | null {
    return this.getBuffer('running_var');
  }

  get numBatchesTracked(): Tensor | null {
    return this.getBuffer('num_batches_tracked');
  }

  /** Running stats back to zeros / ones and the batch count to 0. */
  resetRunningStats(): void {
    if (!this.trackRunningStats) return;
    this.runningMean!.zero_();
    this.runningVar!.fill_(1);
    this.numBatchesTracked!.zero_();
  }

  /** A checkpoint from before num_batches_tracked (PyTorch's state dict version < 2) loads with the counter at 0. */
  override legacyStateDefaults(): Record<string, Tensor> {
    return this.trackRunningStats ? { num_batches_tracked: zeros([], { dtype: 'int32' }) } : {};
  }

  protected abstract checkInputDim(x: Tensor): void;

  forward(x: Tensor): Tensor {
    this.checkInputDim(x);
    let factor = this.momentum ?? 0;
    if (this.training && this.trackRunningStats) {
      const n = this.numBatchesTracked!;
      n.add_(1);
      factor = this.momentum === null ? 1 / n.item() : this.momentum;
    }
    const useBatchStats = this.training || !this.trackRunningStats;
    const track = !this.training || this.trackRunningStats;
    return batchNorm(x, track ? this.runningMean : null, track ? this.runningVar : null, {
      weight: this.weight,
      bias: this.bias,
      training: useBatchStats,
      momentum: factor,
      eps: this.eps,
    });
  }

  override extraRepr(): string {
    const b = (v: boolean) => (v ? 'True' : 'False');
    return `${this.numFeatures}, eps=${pyFloat(this.eps)}, momentum=${this.momentum === null ? 'None' : pyFloat(this.momentum)}, affine=${b(this.affine)}, track_running_stats=${b(this.trackRunningStats)}`;
  }
}

/** Batch norm over [N, C] or [N, C, L]. */
export class BatchNorm1d extends BatchNormBase {
  protected checkInputDim(x: Tensor): void {
    if (x.ndim !== 2 && x.ndim !== 3)
      throw new NnError('INVALID_SHAPE', `expected 2D or 3D input (got ${x.ndim}D input)`);
  }
}

/** Batch norm over [N, C, H, W]. */
export class BatchNorm2d extends BatchNormBase {
  protected checkInputDim(x: Tensor): void {
    if (x.ndim !== 4) throw new NnError('INVALID_SHAPE', `expected 4D input (got ${x.ndim}D input)`);
  }
}
