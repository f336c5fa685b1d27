import { TensorError } from '../errors.js';
import { toTypedArray } from '../read.js';
import type { Tensor } from '../tensor.js';
import { checkInt, checkOptions, checkTensor } from '../validate.js';
import { eq } from './binary.js';
import { detach } from './copy.js';
import { indexSelect } from './indexing.js';
import { reshape, unsqueeze } from './view.js';
import { where } from './where.js';

export interface EmbeddingOptions {
  /** the row that gets no gradient; negative counts from the end; null or absent: none */
  paddingIdx?: number | null;
}

/**
 * PyTorch's torch.embedding(weight, indices, padding_idx): the rows of `weight` [num, dim] picked
 * by int32 `indices` of any shape -> [...indices, dim]. The row at `paddingIdx` gets no gradient
 * (PyTorch's embedding backward skips it). Unlike torch.embedding, whose padding_idx -1 means
 * none, a negative index counts from the end here, as torch.nn.functional.embedding's.
 */
export function embedding(weight: Tensor, indices: Tensor, opts: EmbeddingOptions = {}): Tensor {
  checkTensor('embedding', 'weight', weight);
  checkTensor('embedding', 'indices', indices);
  checkOptions('embedding', 'options', opts);
  const pad = opts.paddingIdx ?? null;
  if (pad !== null) checkInt('embedding', 'padding_idx', pad);
  if (indices.dtype !== 'int32')
    throw new TensorError(
      'INVALID_ARGUMENT',
      `Expected tensor for argument #1 'indices' to have an int32 dtype; but got ${indices.dtype} instead (while checking arguments for embedding)`,
    );
  if (weight.ndim !== 2) throw new TensorError('INVALID_SHAPE', "'weight' must be 2-D");
  const num = weight.shape[0]!;
  if (pad !== null && (pad < -num || pad >= num))
    throw new TensorError('INVALID_ARGUMENT', 'Padding_idx must be within num_embeddings');
  for (const i of toTypedArray(indices))
    if (i < 0 || i >= num) throw new TensorError('INVALID_ARGUMENT', 'index out of range in self');
  const flat = reshape(indices, [-1]);
  let rows = indexSelect(weight, 0, flat);
  if (pad !== null) rows = where(unsqueeze(eq(flat, pad < 0 ? pad + num : pad), 1), detach(rows), rows);
  return reshape(rows, [...indices.shape, weight.shape[1]!]);
}
