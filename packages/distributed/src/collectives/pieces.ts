import type { Tensor, TypedArray } from '@wiregrad/autograd';
import type { Exchange } from './exchange.js';
import { type ReduceOp, combine } from './reduceOp.js';
import { receivedView, wire } from './tensors.js';

/**
 * A tensor's values cut as the large all-reduces cut them (Note [Ring all-reduce], Note [Direct
 * all-reduce]): N chunks, chunk c of rank order c, each cut into the same `count` pieces, sized
 * from the smallest chunk so that every rank cuts the same pieces; and the sends and receives of
 * one piece under `step.piece`.
 */
export class Pieces {
  /** pieces per chunk */
  readonly count: number;

  constructor(
    private readonly ex: Exchange,
    private readonly buf: TypedArray,
    private readonly dtype: Tensor['dtype'],
    pieceBytes: number,
  ) {
    const chunkBytes = Math.floor(buf.length / ex.size) * buf.BYTES_PER_ELEMENT;
    this.count = Math.max(1, Math.ceil(chunkBytes / pieceBytes));
  }

  /** Piece `k` of chunk `chunk` (taken modulo N): a view of the values. */
  piece(chunk: number, k: number): TypedArray {
    const n = this.ex.size;
    const c = ((chunk % n) + n) % n;
    const part = this.buf.subarray(Math.floor((c * this.buf.length) / n), Math.floor(((c + 1) * this.buf.length) / n));
    return part.subarray(Math.floor((k * part.length) / this.count), Math.floor(((k + 1) * part.length) / this.count));
  }

  /** Sends piece `k` of `chunk` to group rank `to` as it is now (no copy: Note [Collectives wait for receipts only where memory is reused]). */
  send(to: number, step: number, chunk: number, k: number, confirm: boolean): Promise<void> {
    return this.ex.send(
      to,
      `${step}.${k}`,
      { meta: { kind: 'ring' }, data: wire(this.piece(chunk, k), this.dtype) },
      confirm,
    );
  }

  /** Receives piece `k` of `chunk` from group rank `from`: folds it into this rank's with `op`, or (no op) writes it over them. */
  async receive(from: number, step: number, chunk: number, k: number, op: ReduceOp | null): Promise<void> {
    const into = this.piece(chunk, k);
    const c = await this.ex.recv(from, `${step}.${k}`);
    const incoming = receivedView(c.data, into.length, `all-reduce step ${step} from rank ${from}`);
    if (op) combine(into, incoming, op);
    else into.set(incoming);
    c.release?.();
  }
}
