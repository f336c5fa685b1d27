import { type EmbeddingOptions, type Tensor, embedding as embeddingOp } from '@wiregrad/autograd';

/** torch.nn.functional.embedding(input, weight) over @wiregrad/tensor's embedding(weight, indices). */
export function embedding(input: Tensor, weight: Tensor, opts: EmbeddingOptions = {}): Tensor {
  return embeddingOp(weight, input, opts);
}
