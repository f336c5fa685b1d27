import type { Tensor, TypedArray } from '@wiregrad/autograd';
import type { Exchange } from './exchange.js';
import { type ReduceOp, finish } from './reduceOp.js';
import { Pieces } from './pieces.js';

/**
 * Note [Ring all-reduce]
 * Bandwidth-optimal all-reduce for large tensors: the values split into N chunks; N-1
 * reduce-scatter steps (rank i sends chunk i-s to rank i+1, which folds it into its own) leave
 * rank i holding chunk i+1 reduced over every rank; N-1 all-gather steps pass the reduced chunks
 * around. Each rank sends 2(N-1)/N of the tensor. Every chunk is cut into the same pieces of
 * at most RING_PIECE_BYTES, one one-way message each (Note [One-way messages]), and each piece
 * runs through the steps on its own: what a step receives of piece k is what the next step sends
 * of it, so piece k goes on as soon as it is folded, while later pieces are still on their way (a
 * pipeline). How large the pieces are: Note [Ring pieces]. See Note [Fixed reduction order].
 */

/**
 * Note [Ring pieces]
 * Over RPC a chunk travels in pieces of at most 1 MiB: the peer hears a message at least every
 * piece, so a step of tens of MiB never looks like silence to the heartbeat check (Note [Peer
 * liveness]). Over local pairs (Note [Local pairs]) the heartbeats travel apart from the data, and
 * every piece costs wake-ups: a Unix socket carries about 210 KiB (the kernel's send buffer) per
 * wake-up of the sender and of the receiver, and a 1 MiB piece arrived 1.5-2 ms after the one
 * before it where the bytes alone take 0.3-0.5 ms. So there the pieces are up to 16 MiB: the DDP
 * model's 7,450,000 B took 4.0-4.7 ms on 2 processes against 10.5-11.5 with 1 MiB pieces, and 64
 * MiB 57-65 against 71-82 (29 Nov, 2 runs each, load 0.2-1.2); 4 processes on 2 cores were no
 * worse (64 MiB 130-177 ms against 200-236). Every rank must cut the same pieces: each asks for
 * its size in the all-reduce's descriptor (16 MiB when it sends to every other member over a
 * local pair, else 1 MiB) and the ring uses the smallest asked for. Cutting a chunk into more
 * pieces than that (at least 4, tried in session 11) cost more than the overlap gave on 2 cores.
 */
/** Pieces over RPC, and over local pairs, of at most this many bytes (Note [Ring pieces]). */
export const RING_PIECE_BYTES = 1 << 20;
export const LOCAL_RING_PIECE_BYTES = 16 << 20;

export async function ringAllReduce(
  ex: Exchange,
  buf: TypedArray,
  op: ReduceOp,
  dtype: Tensor['dtype'],
  pieceBytes: number,
): Promise<void> {
  const n = ex.size;
  const i = ex.rank;
  const next = (i + 1) % n;
  const prev = (i - 1 + n) % n;
  const pieces = new Pieces(ex, buf, dtype, pieceBytes);
  const gathered: Promise<void>[] = [];
  const run = async (k: number) => {
    // reduce-scatter: step 1+s sends chunk i-s and folds chunk i-s-1, which step 2+s sends on
    void pieces.send(next, 1, i, k, false);
    for (let s = 0; s < n - 1; s++) {
      await pieces.receive(prev, 1 + s, i - s - 1, k, op);
      if (s < n - 2) void pieces.send(next, 2 + s, i - s - 1, k, false);
    }
    finish(pieces.piece(i + 1, k), op, n);
    // all-gather: step n+s sends chunk i+1-s and takes chunk i-s, which step n+s+1 sends on;
    // these chunks are the caller's memory once this returns: wait for their receipts
    const last = k === pieces.count - 1;
    gathered.push(pieces.send(next, n, i + 1, k, n === 2 && last));
    for (let s = 0; s < n - 1; s++) {
      await pieces.receive(prev, n + s, i - s, k, null);
      if (s < n - 2) gathered.push(pieces.send(next, n + s + 1, i - s, k, s === n - 3 && last));
    }
  };
  await Promise.all(Array.from({ length: pieces.count }, (_, k) => run(k)));
  await Promise.all(gathered);
}
