import { DistributedError } from './errors.js';
import { randperm } from './mt19937.js';
import { getRank, getWorldSize } from './processGroup.js';

export interface DistributedSamplerOptions {
  /** default: the world size of the default process group */
  numReplicas?: number;
  /** default: this process's rank */
  rank?: number;
  shuffle?: boolean;
  seed?: number;
  dropLast?: boolean;
}

/**
 * torch.utils.data.distributed.DistributedSampler: this rank's share of a dataset's indices,
 * with PyTorch's arithmetic exactly: `numSamples` per rank (padding by repeating the list from
 * its start, or with `dropLast` cutting the tail), a shuffle seeded `seed + epoch` that is
 * PyTorch's randperm (Note [PyTorch's randperm]), and rank r taking every numReplicas-th index
 * from r. Use it as `new DataLoader(ds, { batchSize, sampler })` and call `setEpoch(epoch)` at
 * each epoch's start.
 */
export class DistributedSampler implements Iterable<number> {
  readonly numReplicas: number;
  readonly rank: number;
  readonly shuffle: boolean;
  readonly seed: number;
  readonly dropLast: boolean;
  readonly numSamples: number;
  readonly totalSize: number;
  epoch = 0;

  constructor(
    readonly dataset: { readonly length: number },
    opts: DistributedSamplerOptions = {},
  ) {
    this.numReplicas = opts.numReplicas ?? getWorldSize();
    this.rank = opts.rank ?? getRank();
    if (!Number.isInteger(this.numReplicas) || this.numReplicas < 1)
      throw new DistributedError('INVALID_ARGUMENT', `numReplicas must be a positive integer, got ${this.numReplicas}`);
    if (!Number.isInteger(this.rank) || this.rank < 0 || this.rank >= this.numReplicas)
      throw new DistributedError(
        'INVALID_ARGUMENT',
        `Invalid rank ${this.rank}, rank should be in the interval [0, ${this.numReplicas - 1}]`,
      );
    this.shuffle = opts.shuffle ?? true;
    this.seed = opts.seed ?? 0;
    this.dropLast = opts.dropLast ?? false;
    const n = dataset.length;
    const r = this.numReplicas;
    // Math.max: ceil of a fraction in (-1, 0) is -0 in JS, 0 in Python
    this.numSamples = Math.max(0, this.dropLast && n % r !== 0 ? Math.ceil((n - r) / r) : Math.ceil(n / r));
    this.totalSize = this.numSamples * r;
  }

  /** The number of indices this rank gets per epoch. */
  get length(): number {
    return this.numSamples;
  }

  /** The epoch the next iteration shuffles for (every rank must set the same one). */
  setEpoch(epoch: number): void {
    this.epoch = epoch;
  }

  *[Symbol.iterator](): Iterator<number> {
    const n = this.dataset.length;
    let indices = this.shuffle ? randperm(n, this.seed + this.epoch) : Array.from({ length: n }, (_, i) => i);
    if (!this.dropLast) {
      const padding = this.totalSize - indices.length;
      if (padding <= indices.length) indices = indices.concat(indices.slice(0, padding));
      else
        indices = indices.concat(
          Array.from({ length: Math.ceil(padding / indices.length) }, () => indices)
            .flat()
            .slice(0, padding),
        );
    } else {
      indices = indices.slice(0, this.totalSize);
    }
    for (let i = this.rank; i < this.totalSize; i += this.numReplicas) yield indices[i]!;
  }
}
