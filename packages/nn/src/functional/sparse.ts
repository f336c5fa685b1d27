import { type EmbeddingOptions, type Tensor, embedding as embeddingOp, noGrad } from '@wiregrad/autograd';
import { NnError } from '../errors.js';

/** torch.nn.functional.embedding's options: the op's paddingIdx, and max-norm renormalisation. */
export interface FunctionalEmbeddingOptions extends EmbeddingOptions {
  /** rows looked up with a larger normType-norm are scaled in place to this norm first */
  maxNorm?: number | null;
  /** the p of the norm maxNorm bounds (default 2; Infinity for the max norm) */
  normType?: number;
}

/**
 * torch.nn.functional.embedding(input, weight) over @wiregrad/tensor's embedding(weight, indices).
 * With `maxNorm`, first PyTorch's embedding_renorm_: under noGrad, each distinct looked-up row
 * whose norm exceeds maxNorm is scaled in place by maxNorm / (norm + 1e-7); other rows are left
 * as they are.
 */
export function embedding(input: Tensor, weight: Tensor, opts: FunctionalEmbeddingOptions = {}): Tensor {
  const { maxNorm = null, normType = 2, ...rest } = opts;
  if (maxNorm !== null) embeddingRenorm_(weight, input, maxNorm, normType);
  return embeddingOp(weight, input, rest);
}

/** PyTorch's torch.embedding_renorm_(weight, indices, maxNorm, normType): the rows of `indices` clipped to maxNorm in place. */
export function embeddingRenorm_(weight: Tensor, indices: Tensor, maxNorm: number, normType = 2): Tensor {
  if (typeof maxNorm !== 'number' || !(normType > 0))
    throw new NnError('INVALID_ARGUMENT', 'embedding_renorm_: max_norm must be a number and norm_type positive');
  const rows = [...new Set(Array.from(indices.toTypedArray(), Number))]
    .filter((i) => i >= 0 && i < weight.shape[0]!)
    .sort((a, b) => a - b);
  noGrad(() => {
    for (const i of rows) {
      const row = weight.select(0, i);
      const a = row.abs();
      const norm = (
        normType === Infinity
          ? a.max()
          : a
              .pow(normType)
              .sum()
              .pow(1 / normType)
      ).item();
      if (norm > maxNorm) row.mul_(maxNorm / (norm + 1e-7));
    }
  });
  return weight;
}
