import type { Tensor, TypedArray } from '@wiregrad/autograd';
import type { Exchange } from './exchange.js';
import { type ReduceOp, combine, finish } from './reduceOp.js';
import { receivedView, wire } from './tensors.js';

/**
 * Note [Ring all-reduce]
 * Bandwidth-optimal all-reduce for large tensors: the values split into N chunks; N-1
 * reduce-scatter steps (rank i sends chunk i-s to rank i+1, which folds it into its own) leave
 * rank i holding chunk i+1 reduced over every rank; N-1 all-gather steps pass the reduced chunks
 * around. Each rank sends 2(N-1)/N of the tensor. Each step's chunk travels in pieces of at most
 * RING_PIECE_BYTES, all in flight at once, one one-way message each (Note [One-way messages]):
 * a piece is folded in while the next ones arrive, and
 * the peer hears a message at least every piece, so a step of tens of MiB never looks like
 * silence to the heartbeat check (Note [Peer liveness]). See Note [Fixed reduction order].
 */
/** Each ring step's chunk travels in pieces of at most this many bytes (Note [Ring all-reduce]). */
export const RING_PIECE_BYTES = 1 << 20;

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
  const pieces = (len: number) => Math.max(1, Math.ceil((len * buf.BYTES_PER_ELEMENT) / RING_PIECE_BYTES));
  const bounds = (len: number, np: number, k: number) => [Math.floor((k * len) / np), Math.floor(((k + 1) * len) / np)];
  /** this step's sends (no copy: Note [Collectives wait for receipts only where memory is reused]) and its receives */
  const step = async (s: number, sendIdx: number, recvIdx: number, fold: boolean, last: boolean) => {
    const out = part(sendIdx);
    const into = part(recvIdx);
    // the receiver cuts `into` as the sender cuts `out`: the same chunk index has the same length
    const np = pieces(out.length);
    const sends = Array.from({ length: np }, (_, k) => {
      const [a, b] = bounds(out.length, np, k);
      const chunk = { meta: { kind: 'ring' }, data: wire(out.subarray(a, b), dtype) };
      return ex.send(next, `${s}.${k}`, chunk, last && k === np - 1);
    });
    const recvs = Array.from({ length: pieces(into.length) }, async (_, k) => {
      const [a, b] = bounds(into.length, pieces(into.length), k);
      const c = await ex.recv(prev, `${s}.${k}`);
      const incoming = receivedView(c.data, b! - a!, `ring step ${s} from rank ${prev}`);
      if (fold) combine(into.subarray(a, b), incoming, op);
      else into.set(incoming, a);
      c.release?.();
    });
    await Promise.all(recvs);
    return sends;
  };
  for (let s = 0; s < n - 1; s++) await step(1 + s, (i - s + n) % n, (i - s - 1 + n) % n, true, false);
  finish(part((i + 1) % n), op, n);
  // the all-gather's chunks are the caller's memory once this returns: wait for their receipts
  const gathered: Promise<void>[] = [];
  for (let s = 0; s < n - 1; s++)
    gathered.push(...(await step(n + s, (i + 1 - s + n) % n, (i - s + n) % n, false, s === n - 2)));
  await Promise.all(gathered);
}
