import type { Tensor } from '@wiregrad/autograd';
import { DistributedError } from '../errors.js';
import { groupOf, sendsLocallyTo } from '../processGroup.js';
import { directAllReduce } from './direct.js';
import { agree } from './exchange.js';
import { ReduceOp, combine, finish, isReduceOp } from './reduceOp.js';
import { LOCAL_RING_PIECE_BYTES, RING_PIECE_BYTES, ringAllReduce } from './ring.js';
import { checkTensor, receivedView, storageView, valuesOf, wire, writeBack } from './tensors.js';
import { type CollectiveOptions, type Launched, launch } from './work.js';

/** Up to this many bytes an all-reduce is one all-to-all round; above, a ring (Note [Ring all-reduce]). */
export const SMALL_ALL_REDUCE_BYTES = 256 * 1024;

export interface ReduceOptions extends CollectiveOptions {
  op?: ReduceOp;
}

export function checkOp(fn: string, op: unknown, t: Tensor): ReduceOp {
  if (!isReduceOp(op))
    throw new DistributedError(
      'INVALID_ARGUMENT',
      `${fn}(): op must be one of ${Object.values(ReduceOp).join(', ')}, got ${String(op)}`,
    );
  if (op === 'AVG' && t.dtype === 'int32')
    throw new DistributedError('INVALID_ARGUMENT', `${fn}(): ReduceOp.AVG needs a floating point tensor, got int32`);
  return op;
}

/**
 * Note [Fixed reduction order]
 * Floating-point sums depend on their order, and every rank must end with the same bits. A
 * small all-reduce has every rank fold all N contributions in rank order 0..N-1 (the same
 * operands in the same order everywhere); a ring computes each chunk once, on one rank, and
 * copies it to the others. Either way every rank holds the very same values.
 */
export function allReduce<O extends ReduceOptions>(t: Tensor, opts?: O): Launched<O> {
  return launch(opts, async () => {
    checkTensor('allReduce', 'tensor', t);
    const op = checkOp('allReduce', opts?.op ?? ReduceOp.SUM, t);
    const group = groupOf(opts?.group);
    const n = group.size();
    const desc = { kind: 'allReduce', dtype: t.dtype, shape: [...t.shape], op };
    if (n === 1) return;
    const bytes = t.numel * (t.dtype === 'float64' ? 8 : 4);
    if (bytes <= SMALL_ALL_REDUCE_BYTES) {
      const values = valuesOf(t);
      const { chunks } = await agree(group, desc, () => wire(values, t.dtype));
      const of = (r: number) =>
        r === group.rank ? values : receivedView(chunks[r]!.data, values.length, `allReduce from rank ${r}`);
      const acc = of(0).slice();
      for (let r = 1; r < n; r++) combine(acc, of(r), op);
      for (const c of chunks) c?.release?.();
      finish(acc, op, n);
      writeBack(t, acc);
      return;
    }
    const pieceBytes = sendsLocallyTo(group) ? LOCAL_RING_PIECE_BYTES : RING_PIECE_BYTES;
    const { ex, chunks } = await agree(group, { ...desc, pieceBytes });
    // in place where it can (Note [Collectives copy nothing large])
    const view = storageView(t);
    const values = view ?? valuesOf(t);
    const agreed = Math.min(
      pieceBytes,
      ...chunks.map((c) => (c ? (c.meta.pieceBytes ?? RING_PIECE_BYTES) : pieceBytes)),
    );
    // every rank asked for local pieces only if it reaches every member over a local pair (Note [Direct all-reduce])
    const everyLocal = agreed === LOCAL_RING_PIECE_BYTES;
    await (n > 2 && everyLocal ? directAllReduce : ringAllReduce)(ex, values, op, t.dtype, agreed);
    if (view) t.storage.version++;
    else writeBack(t, values);
  });
}
