import { type Tensor, eq, indexSelect, where } from '@wiregrad/autograd';
import { NnError } from '../errors.js';

/**
 * Rows of `weight` [num, dim] picked by int32 indices of any shape -> [...indices, dim]. The row
 * at `paddingIdx` gets no gradient (PyTorch's embedding backward skips it).
 */
export function embedding(input: Tensor, weight: Tensor, opts: { paddingIdx?: number | null } = {}): Tensor {
  if (input.dtype !== 'int32')
    throw new NnError(
      'INVALID_ARGUMENT',
      `Expected tensor for argument #1 'indices' to have an int32 dtype; but got ${input.dtype} instead (while checking arguments for embedding)`,
    );
  if (weight.ndim !== 2) throw new NnError('INVALID_SHAPE', "'weight' must be 2-D");
  const num = weight.shape[0]!;
  for (const i of input.toTypedArray())
    if (i < 0 || i >= num) throw new NnError('INVALID_ARGUMENT', 'index out of range in self');
  const flat = input.reshape([-1]);
  let rows = indexSelect(weight, 0, flat);
  const pad = opts.paddingIdx;
  if (pad !== undefined && pad !== null)
    rows = where(eq(flat, pad < 0 ? pad + num : pad).unsqueeze(1), rows.detach(), rows);
  return rows.reshape([...input.shape, weight.shape[1]!]);
}
