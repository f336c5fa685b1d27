import type { Attrs, KernelFunc } from '../kernelRegistry.js';
import { Tensor } from '../tensor.js';
import { dims3 } from '../shape.js';

/**
 * Note [Matrices through BatchMatMul]
 * mm is BatchMatMul on two matrices: [M,K] @ [K,N] -> [M,N], one kernel call and one graph node,
 * as PyTorch's mm. It used to add a batch dim to each operand and drop it from the product
 * with three view ops, each a kernel call and, under autograd, a node of its own on the way
 * forward and back: more time than a small product itself. A kernel that indexes the operands
 * itself (the cpu's TypeScript and wasm gemms) reads two matrices as a batch of one through
 * `asBatch`, a matrix's batch stride being 0; a kernel written for [B,M,K] @ [B,K,N] only (the
 * gpu's) is wrapped in `acceptingMatrices`, which gives it batch-of-one views made outside
 * runKernel (so nothing records them) and releases them before it returns.
 */
function batchOfOne(t: Tensor): Tensor {
  return new Tensor(t.storage, [1, ...t.shape], [0, ...t.strides], t.offset);
}

/** A [B,M,K] @ [B,K,N] kernel also taking two matrices (Note [Matrices through BatchMatMul]). */
export function acceptingMatrices(batched: KernelFunc): KernelFunc {
  return ([a, b], attrs: Attrs): Tensor[] => {
    if (a!.ndim === 3) return batched([a!, b!], attrs);
    const a3 = batchOfOne(a!);
    const b3 = batchOfOne(b!);
    try {
      const c3 = batched([a3, b3], attrs)[0]!;
      const c = new Tensor(c3.storage, c3.shape.slice(1), c3.strides.slice(1), c3.offset);
      c3.dispose();
      return [c];
    } finally {
      a3.dispose();
      b3.dispose();
    }
  };
}

/** A product's sizes and strides read as a batch, whether its operands are two batches or two matrices. */
export interface BatchedProduct {
  B: number;
  M: number;
  K: number;
  N: number;
  /** batch, row and column strides; a matrix's batch stride is 0 */
  aStrides: readonly [number, number, number];
  bStrides: readonly [number, number, number];
  /** [B,M,N], or [M,N] for two matrices */
  outShape: readonly number[];
}

/** `a @ b` as a batch (Note [Matrices through BatchMatMul]): kernels that index the operands themselves need no views. */
export function asBatch(a: Tensor, b: Tensor): BatchedProduct {
  const lead = a.ndim - 2;
  const [M, K, N] = [a.shape[lead]!, a.shape[lead + 1]!, b.shape[lead + 1]!];
  const as = a.strides;
  const bs = b.strides;
  return lead === 0
    ? { B: 1, M, K, N, aStrides: [0, as[0]!, as[1]!], bStrides: [0, bs[0]!, bs[1]!], outShape: [M, N] }
    : {
        B: a.shape[0]!,
        M,
        K,
        N,
        aStrides: dims3(as, 'BatchMatMul'),
        bStrides: dims3(bs, 'BatchMatMul'),
        outShape: [a.shape[0]!, M, N],
      };
}
