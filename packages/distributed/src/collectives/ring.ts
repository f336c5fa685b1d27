import type { Tensor, TypedArray } from '@wiregrad/autograd';
import type { Exchange } from './exchange.js';
import { type ReduceOp, combine, finish } from './reduceOp.js';
import { receivedView, wire } from './tensors.js';

/**
 * Note [Ring all-reduce]
 * Bandwidth-optimal all-reduce for large tensors: the values split into N chunks; N-1
 * reduce-scatter steps (rank i sends chunk i-s to rank i+1, which folds it into its own) leave
 * rank i holding chunk i+1 reduced over every rank; N-1 all-gather steps pass the reduced chunks
 * around. Each rank sends 2(N-1)/N of the tensor. See Note [Fixed reduction order].
 */
export async function ringAllReduce(
  ex: Exchange,
  buf: TypedArray,
  op: ReduceOp,
  dtype: Tensor['dtype'],
): Promise<void> {
  const n = ex.size;
  const i = ex.rank;
  const next = (i + 1) % n;
  const prev = (i - 1 + n) % n;
  const part = (k: number) => buf.subarray(Math.floor((k * buf.length) / n), Math.floor(((k + 1) * buf.length) / n));
  const step = async (s: number, sendIdx: number, recvIdx: number, fold: boolean) => {
    const [, c] = await Promise.all([
      // no copy: the chunk is not written again before this step's delivery (Note [Collectives copy nothing large])
      ex.send(next, s, { meta: { kind: 'ring' }, data: wire(part(sendIdx), dtype) }),
      ex.recv(prev, s),
    ]);
    const into = part(recvIdx);
    const incoming = receivedView(c.data, into.length, `ring step ${s} from rank ${prev}`);
    if (fold) combine(into, incoming, op);
    else into.set(incoming);
  };
  for (let s = 0; s < n - 1; s++) await step(1 + s, (i - s + n) % n, (i - s - 1 + n) % n, true);
  finish(part((i + 1) % n), op, n);
  for (let s = 0; s < n - 1; s++) await step(n + s, (i + 1 - s + n) % n, (i - s + n) % n, false);
}
