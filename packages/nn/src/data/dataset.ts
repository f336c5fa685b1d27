import { type Tensor, indexSelect, tensor } from '@wiregrad/autograd';
import { NnError } from '../errors.js';
import { type Generator, generatorOf } from './generator.js';

/** torch.utils.data.Dataset: a length and an item per index. */
export interface Dataset<T> {
  readonly length: number;
  getItem(index: number): T;
  /** optional fast path: the collated batch of these indices (TensorDataset stacks by indexSelect) */
  getBatch?(indices: readonly number[]): T;
}

/** Samples are the index-th rows of each tensor (all with the same first dim), as torch's TensorDataset. */
export class TensorDataset implements Dataset<Tensor[]> {
  readonly tensors: Tensor[];

  constructor(...tensors: Tensor[]) {
    if (tensors.length === 0) throw new NnError('INVALID_ARGUMENT', 'TensorDataset needs at least one tensor');
    const n = tensors[0]!.shape[0];
    if (tensors.some((t) => t.ndim === 0 || t.shape[0] !== n))
      throw new NnError('INVALID_SHAPE', 'Size mismatch between tensors');
    this.tensors = tensors;
  }

  get length(): number {
    return this.tensors[0]!.shape[0]!;
  }

  getItem(index: number): Tensor[] {
    if (!Number.isInteger(index) || index < -this.length || index >= this.length) {
      throw new NnError('INVALID_ARGUMENT', `index ${index} is out of bounds for dimension 0 with size ${this.length}`);
    }
    return this.tensors.map((t) => t.select(0, index));
  }

  getBatch(indices: readonly number[]): Tensor[] {
    const idx = tensor(Int32Array.from(indices));
    return this.tensors.map((t) => indexSelect(t, 0, t.device.type === 'cpu' ? idx : idx.to(t.device)));
  }
}

/** The items of `dataset` at `indices`, as torch's Subset. */
export class Subset<T> implements Dataset<T> {
  readonly getBatch?: (indices: readonly number[]) => T;

  constructor(
    readonly dataset: Dataset<T>,
    readonly indices: readonly number[],
  ) {
    const inner = dataset.getBatch?.bind(dataset);
    if (inner) this.getBatch = (batch) => inner(batch.map((i) => this.indices[i]!));
  }

  get length(): number {
    return this.indices.length;
  }

  getItem(index: number): T {
    return this.dataset.getItem(this.indices[index < 0 ? this.indices.length + index : index]!);
  }
}

/**
 * Splits a dataset into non-overlapping random subsets of the given lengths: counts that add
 * up to its length, or fractions that add up to 1 (remainders go round-robin to the first
 * subsets, as PyTorch).
 */
export function randomSplit<T>(
  dataset: Dataset<T>,
  lengths: number[],
  opts: { generator?: number | Generator } = {},
): Subset<T>[] {
  const n = dataset.length;
  let counts = lengths;
  const total = lengths.reduce((a, b) => a + b, 0);
  if (Math.abs(total - 1) < 1e-9 && total <= 1) {
    lengths.forEach((f, i) => {
      if (!(f >= 0 && f <= 1)) throw new NnError('INVALID_ARGUMENT', `Fraction at index ${i} is not between 0 and 1`);
    });
    counts = lengths.map((f) => Math.floor(n * f));
    const remainder = n - counts.reduce((a, b) => a + b, 0);
    for (let i = 0; i < remainder; i++) counts[i % counts.length]! += 1;
  }
  if (counts.some((c) => !Number.isInteger(c) || c < 0))
    throw new NnError(
      'INVALID_ARGUMENT',
      `randomSplit lengths must be non-negative integers or fractions summing to 1, got [${lengths.join(', ')}]`,
    );
  if (counts.reduce((a, b) => a + b, 0) !== n)
    throw new NnError('INVALID_ARGUMENT', 'Sum of input lengths does not equal the length of the input dataset!');
  const perm = generatorOf(opts.generator).randperm(n);
  let offset = 0;
  return counts.map((c) => new Subset(dataset, perm.slice(offset, (offset += c))));
}
