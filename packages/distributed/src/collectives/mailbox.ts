import type { Tensor } from '@wiregrad/autograd';
import type { DistributedError } from '../errors.js';

/** What a rank sent for one step of one collective: a descriptor and (maybe) a tensor. */
export interface Chunk {
  meta: Descriptor;
  data: Tensor | null;
  /** gives the data's memory back for reuse: call it once nothing reads `data` any more (Note [Local pairs]) */
  release?: () => void;
}

/** What every rank says about the collective it is in (Note [Mismatched collectives]). */
export interface Descriptor {
  kind: string;
  dtype?: string;
  shape?: readonly number[];
  op?: string;
  root?: number;
  extra?: string;
  /** the ring's piece size this rank asks for: not compared, the group takes the smallest (Note [Ring pieces]) */
  pieceBytes?: number;
}

interface Waiter {
  resolve: (c: Chunk) => void;
  reject: (e: unknown) => void;
}

/**
 * Note [Collective mailbox]
 * Ranks meet in a collective through messages, not calls: a rank delivers each chunk it sends
 * to its receiver's mailbox under the key (group, collective sequence number, step, source
 * rank), and the receiver takes it from there, whether it arrived before the receiver reached
 * that step or after. Every rank numbers the collectives of a group in the order it calls them,
 * so the keys meet without any coordination; a chunk is taken exactly once. A broken group
 * (a member died, or the group was destroyed) fails every waiter and every later take.
 */
export class Mailbox {
  private readonly entries = new Map<string, Chunk>();
  private readonly waiters = new Map<string, Waiter>();
  private failure: DistributedError | null = null;
  private readonly onFailure: ((e: DistributedError) => void)[] = [];

  put(key: string, chunk: Chunk): void {
    const w = this.waiters.get(key);
    if (w) {
      this.waiters.delete(key);
      w.resolve(chunk);
    } else {
      this.entries.set(key, chunk);
    }
  }

  take(key: string): Promise<Chunk> {
    const chunk = this.entries.get(key);
    if (chunk) {
      this.entries.delete(key);
      return Promise.resolve(chunk);
    }
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.set(key, { resolve, reject }));
  }

  /** Fails every pending and later take with `e` (the first failure wins). */
  fail(e: DistributedError): void {
    this.failure ??= e;
    for (const w of this.waiters.values()) w.reject(this.failure);
    this.waiters.clear();
    this.entries.clear();
    for (const f of this.onFailure.splice(0)) f(this.failure);
  }

  /** Rejects with the failure that breaks this mailbox, or with `fallback` if none comes within `ms`. */
  verdict(fallback: unknown, ms: number): Promise<never> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<never>((_, reject) => {
      const timer = setTimeout(() => reject(fallback), ms);
      this.onFailure.push((e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
  }

  get broken(): DistributedError | null {
    return this.failure;
  }

  /** Entries delivered and not taken yet (a spec checks that collectives leave none behind). */
  get size(): number {
    return this.entries.size;
  }
}
