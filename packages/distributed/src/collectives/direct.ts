import type { Tensor, TypedArray } from '@wiregrad/autograd';
import type { Exchange } from './exchange.js';
import { Pieces } from './pieces.js';
import { type ReduceOp, finish } from './reduceOp.js';

/**
 * Note [Direct all-reduce]
 * Where every member is on this machine (Note [Local pairs]: a pair to each), a large all-reduce
 * of N > 2 ranks skips the ring's N-1 hops per phase: in step 1 every rank sends chunk c to rank c
 * (a reduce-scatter straight to each chunk's owner), rank i folds the N-1 copies of chunk i it
 * receives into its own in the fixed order i+1, i+2, ..., i-1 (Note [Fixed reduction order]: the
 * owner computes its chunk once, everyone copies it), and in step 2 it sends the reduced chunk to
 * every rank. The bytes are the ring's (each rank sends 2(N-1)/N of the tensor), but a chunk waits
 * for two deliveries, not 2(N-1), each of which needs the receiving process on a core: with 4
 * ranks on 2 cores the ring's 6 hops each waited for the next rank to be scheduled. A region this
 * rank sent in step 1 is overwritten in step 2 only by its owner's reduced chunk, which the owner
 * computed after receiving it (Note [Collectives wait for receipts only where memory is reused]).
 * With N = 2 this is the ring. Ranks choose it together: only when each said in the descriptor
 * that it reaches every member over a local pair.
 */
export async function directAllReduce(
  ex: Exchange,
  buf: TypedArray,
  op: ReduceOp,
  dtype: Tensor['dtype'],
  pieceBytes: number,
): Promise<void> {
  const n = ex.size;
  const i = ex.rank;
  const pieces = new Pieces(ex, buf, dtype, pieceBytes);
  const others = Array.from({ length: n - 1 }, (_, d) => (i + 1 + d) % n);
  const gathered: Promise<void>[] = [];
  const run = async (k: number) => {
    for (const j of others) void pieces.send(j, 1, j, k, false);
    for (const j of others) await pieces.receive(j, 1, i, k, op);
    finish(pieces.piece(i, k), op, n);
    // the caller's memory once this returns: wait for the kernel (or the receipts) to have it
    for (const j of others) gathered.push(pieces.send(j, 2, i, k, k === pieces.count - 1));
    await Promise.all(others.map((j) => pieces.receive(j, 2, j, k, null)));
  };
  await Promise.all(Array.from({ length: pieces.count }, (_, k) => run(k)));
  await Promise.all(gathered);
}
