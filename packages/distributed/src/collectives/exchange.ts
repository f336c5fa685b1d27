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

  constructor(readonly group: ProcessGroup) {
    this.box = mailbox();
    this.seq = group.seq++;
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

  send(to: number, step: number | string, chunk: Chunk): Promise<void> {
    return deliver(this.group.ranks[to]!, this.key(step, this.group.ranks[this.rank]!), chunk);
  }

  recv(from: number, step: number | string): Promise<Chunk> {
    return this.box.take(this.key(step, this.group.ranks[from]!));
  }
}

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

const never = new Promise<never>(() => {});

/**
 * Note [Step 0 does not wait for its answers]
 * A delivery is a call whose answer says the chunk reached the receiver's mailbox. Step 0 ends
 * when every other rank's chunk has arrived, without waiting for the answers to its own: having
 * received from every rank, this rank knows they all reached step 0, and its own chunks travel
 * before any later message to the same rank (one ZeroMQ socket per peer keeps the order). That
 * halves a small collective's latency (one one-way trip, not a round trip). A delivery that fails
 * still fails the collective if it fails first; a rank that dies fails it through PEER_GONE. The
 * data of step 0 is always a copy of its own, never a view that a later step writes.
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
  const sent = Promise.all(others.map((r) => ex.send(r, 0, { meta: desc, data: data(r) })));
  // See Note [Step 0 does not wait for its answers]
  const received = await Promise.race([Promise.all(others.map((r) => ex.recv(r, 0))), sent.then(() => never)]);
  const chunks: (Chunk | null)[] = group.ranks.map(() => null);
  others.forEach((r, i) => (chunks[r] = received[i]!));
  const mine = describe(desc);
  for (const r of others) {
    const theirs = describe(chunks[r]!.meta);
    if (theirs !== mine)
      throw new DistributedError(
        'MISMATCH',
        `mismatched collective #${ex.seq} on the group of ranks [${group.ranks.join(', ')}]: rank ${ex.rank} called ${mine}, rank ${r} called ${theirs}`,
      );
  }
  return { ex, chunks };
}
