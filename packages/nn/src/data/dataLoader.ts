import { type Tensor, Tensor as TensorClass, stack, tensor } from '@wiregrad/autograd';
import { NnError } from '../errors.js';
import type { Dataset } from './dataset.js';
import { type Generator, generatorOf } from './generator.js';

/** Stacks samples into a batch: tensors along a new dim 0, numbers into a tensor, arrays and objects field by field. */
export function defaultCollate(samples: unknown[]): unknown {
  const first = samples[0];
  if (first instanceof TensorClass) return stack(samples as Tensor[], 0);
  if (typeof first === 'number')
    return tensor(samples as number[], { dtype: samples.every((s) => Number.isInteger(s)) ? 'int32' : 'float32' });
  if (typeof first === 'boolean') return tensor(samples as boolean[]);
  if (Array.isArray(first)) return first.map((_, i) => defaultCollate(samples.map((s) => (s as unknown[])[i])));
  if (typeof first === 'object' && first !== null) {
    return Object.fromEntries(
      Object.keys(first).map((k) => [k, defaultCollate(samples.map((s) => (s as Record<string, unknown>)[k]))]),
    );
  }
  return samples;
}

export interface DataLoaderOptions<T, B> {
  batchSize?: number;
  /** a new random order every epoch */
  shuffle?: boolean;
  /** the seed (or Generator) of the shuffle; each iteration draws the next permutation from it */
  generator?: number | Generator;
  /** drop the last batch when it is smaller than batchSize */
  dropLast?: boolean;
  /** samples -> batch; default: defaultCollate (or the dataset's getBatch when it has one) */
  collateFn?: (samples: T[]) => B;
  /** the indices of each epoch, in order (e.g. a DistributedSampler); excludes `shuffle` */
  sampler?: Sampler;
}

/** torch.utils.data.Sampler: iterated once per epoch for the dataset indices to load; `length` of them. */
export interface Sampler extends Iterable<number> {
  readonly length: number;
}

/**
 * torch.utils.data.DataLoader, synchronous and single-process: iterate it once per epoch
 * (`for (const [x, y] of loader)`); `length` is the number of batches.
 */
export class DataLoader<T, B = T> implements Iterable<B> {
  readonly batchSize: number;
  readonly shuffle: boolean;
  readonly dropLast: boolean;
  private readonly generator: Generator;
  private readonly collateFn: ((samples: T[]) => B) | undefined;
  readonly sampler: Sampler | undefined;

  constructor(
    readonly dataset: Dataset<T>,
    opts: DataLoaderOptions<T, B> = {},
  ) {
    const { batchSize = 1, shuffle = false, dropLast = false } = opts;
    if (!Number.isInteger(batchSize) || batchSize <= 0)
      throw new NnError(
        'INVALID_ARGUMENT',
        `batch_size should be a positive integer value, but got batch_size=${batchSize}`,
      );
    this.batchSize = batchSize;
    this.shuffle = shuffle;
    this.dropLast = dropLast;
    this.generator = generatorOf(opts.generator);
    this.collateFn = opts.collateFn;
    if (opts.sampler && shuffle)
      throw new NnError('INVALID_ARGUMENT', 'sampler option is mutually exclusive with shuffle');
    this.sampler = opts.sampler;
  }

  get length(): number {
    const n = this.sampler ? this.sampler.length : this.dataset.length;
    return this.dropLast ? Math.floor(n / this.batchSize) : Math.ceil(n / this.batchSize);
  }

  *[Symbol.iterator](): Iterator<B> {
    const order = this.sampler
      ? [...this.sampler]
      : this.shuffle
        ? this.generator.randperm(this.dataset.length)
        : Array.from({ length: this.dataset.length }, (_, i) => i);
    const n = order.length;
    for (let start = 0; start < n; start += this.batchSize) {
      const indices = order.slice(start, start + this.batchSize);
      if (this.dropLast && indices.length < this.batchSize) break;
      if (!this.collateFn && this.dataset.getBatch) {
        yield this.dataset.getBatch(indices) as unknown as B;
        continue;
      }
      const samples = indices.map((i) => this.dataset.getItem(i));
      yield this.collateFn ? this.collateFn(samples) : (defaultCollate(samples) as B);
    }
  }
}
