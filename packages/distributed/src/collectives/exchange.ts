import type { Tensor } from '@wiregrad/autograd';
import { DistributedError } from '../errors.js';
import { type ProcessGroup, deliver, mailbox } from '../processGroup.js';
import type { Chunk, Descriptor, Mailbox } from './mailbox.js';

/**
 * One collective on one group, as this rank sees it: its sequence number, and sends and
 * receives by group rank and step (Note [Collective mailbox]). Step 0 is always `agree`.
 */
export class Exchange {
  readonly seq: number;
  private readonly box: Mailbox;
  /** rejects with the first failed delivery: every receive of this collective fails with it */
  private readonly failed: Promise<never>;
  private fail!: (e: unknown) => void;

  constructor(readonly group: ProcessGroup) {
    this.box = mailbox();
    this.seq = group.seq++;
    this.failed = new Promise<never>((_, reject) => (this.fail = reject));
    this.failed.catch(() => {}); // a collective that receives nothing more must not crash the process
  }

  get rank(): number {
    return this.group.rank;
  }

  get size(): number {
    return this.group.size();
  }

  private key(step: number | string, srcGlobal: number): string {
    return `${this.group.id}|${this.seq}|${step}|${srcGlobal}`;
  }

  /**
   * Sends a chunk to group rank `to`; resolves once it is in `to`'s mailbox (`confirm`: at once,
   * else with the next batch of receipts). Nobody has to await it: a failed delivery fails every
   * receive of this collective (See Note [Collectives wait for receipts only where memory is reused]).
   */
  send(to: number, step: number | string, chunk: Chunk, confirm = false): Promise<void> {
    const sent = deliver(this.group.ranks[to]!, this.key(step, this.group.ranks[this.rank]!), chunk, confirm);
    sent.catch((e: unknown) => this.fail(e));
    return sent;
  }

  recv(from: number, step: number | string): Promise<Chunk> {
    return Promise.race([this.box.take(this.key(step, this.group.ranks[from]!)), this.failed]);
  }
}

/** Whether two ranks called the same collective (what `describe` would print alike). */
const sameDescriptor = (a: Descriptor, b: Descriptor) =>
  a.kind === b.kind &&
  a.dtype === b.dtype &&
  a.op === b.op &&
  a.root === b.root &&
  a.extra === b.extra &&
  (a.shape ?? []).length === (b.shape ?? []).length &&
  (a.shape ?? []).every((s, i) => s === b.shape![i]);

const describe = (d: Descriptor) =>
  `${d.kind}(${[
    d.dtype && `dtype ${d.dtype}`,
    d.shape && `shape [${d.shape.join(', ')}]`,
    d.op && `op ${d.op}`,
    d.root !== undefined && `root ${d.root}`,
    d.extra && d.extra,
  ]
    .filter(Boolean)
    .join(', ')})`;

/**
 * Note [Collectives wait for receipts only where memory is reused]
 * A chunk is one one-way message (Note [One-way messages]); a collective never waits for a
 * chunk's receipt to go on, only for the chunks it receives. Data of step 0 is always a copy of
 * the caller's, never written again; a ring sends views of the tensor itself (Note [Collectives
 * copy nothing large]), and rewrites a region it sent only once data that the receiver computed
 * from it came back around the ring, so the receiver had it. What a collective sends last from
 * memory the caller may write as soon as it returns (the ring's all-gather, a send()) it awaits
 * the receipts of, with `confirm` on the last chunk so the receiver answers at once. Step 0 thus
 * costs one one-way trip, not a round trip. A delivery that fails fails every receive of its
 * collective; a rank that dies fails them through PEER_GONE.
 */

/**
 * Note [Mismatched collectives]
 * Every rank must call the same collectives in the same order with the same dtypes, shapes, ops
 * and roots. Step 0 of every collective is an all-to-all of each rank's descriptor (for a small
 * all-reduce the data rides along: still one round), and every rank compares every descriptor
 * with its own before it touches any data: so a mismatch is the same coded error on every rank,
 * never garbage and never a hang. Every step-0 chunk is taken before the comparison, so none is
 * left behind and the group goes on with its next collective.
 */
export async function agree(
  group: ProcessGroup,
  desc: Descriptor,
  data: (to: number) => Tensor | null = () => null,
): Promise<{ ex: Exchange; chunks: (Chunk | null)[] }> {
  const ex = new Exchange(group);
  const others = group.ranks.map((_, r) => r).filter((r) => r !== ex.rank);
  for (const r of others) void ex.send(r, 0, { meta: desc, data: data(r) });
  const received = await Promise.all(others.map((r) => ex.recv(r, 0)));
  const chunks: (Chunk | null)[] = group.ranks.map(() => null);
  others.forEach((r, i) => (chunks[r] = received[i]!));
  for (const r of others) {
    const theirs = chunks[r]!.meta;
    if (!sameDescriptor(theirs, desc))
      throw new DistributedError(
        'MISMATCH',
        `mismatched collective #${ex.seq} on the group of ranks [${group.ranks.join(', ')}]: rank ${ex.rank} called ${describe(desc)}, rank ${r} called ${describe(theirs)}`,
      );
  }
  return { ex, chunks };
}
