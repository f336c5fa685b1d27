import { decode, encode } from '@msgpack/msgpack';
import { Dealer, Router } from 'zeromq';
import type { DeviceMaps } from '../deviceMaps.js';
import { RpcError } from '../errors.js';

/** What every worker tells the others at rendezvous. */
export interface WorkerRecord {
  name: string;
  rank: number;
  address: string;
  publicKey: string | null;
  /** the largest frame this worker accepts (its ZMQ_MAXMSGSIZE) */
  maxMessageBytes: number;
  /** its backendOptions.deviceMaps, checked against the others' at rendezvous */
  deviceMaps?: DeviceMaps;
}

/** Resolves `initMethod` (`tcp://host:port` or `env://` from MASTER_ADDR/MASTER_PORT) to a ZeroMQ address. */
export function storeAddress(initMethod: string): string {
  if (initMethod === 'env://') {
    const addr = process.env.MASTER_ADDR;
    const port = process.env.MASTER_PORT;
    if (!addr || !port) {
      throw new RpcError('RENDEZVOUS', 'env:// rendezvous needs the MASTER_ADDR and MASTER_PORT environment variables');
    }
    return `tcp://${addr}:${port}`;
  }
  if (!/^tcp:\/\/[^:]+:\d+$/.test(initMethod)) {
    throw new RpcError('RENDEZVOUS', `initMethod must be 'tcp://host:port' or 'env://', got '${initMethod}'`);
  }
  return initMethod;
}

function check(records: WorkerRecord[], worldSize: number): string | null {
  const byName = new Map<string, WorkerRecord>();
  for (const r of records) {
    const other = byName.get(r.name);
    if (other)
      return `RPC worker name ${r.name} is not unique. Workers ${other.rank} and ${r.rank} share the same name`;
    byName.set(r.name, r);
  }
  const ranks = new Set(records.map((r) => r.rank));
  if (ranks.size !== records.length)
    return `two workers claim the same rank among ${records.map((r) => `${r.name}:${r.rank}`).join(', ')}`;
  for (const r of records)
    if (r.rank < 0 || r.rank >= worldSize) return `rank ${r.rank} of ${r.name} is outside [0, ${worldSize})`;
  return null;
}

/** `p`, or a RENDEZVOUS error after `ms` (none for ms <= 0), or a SHUTDOWN error once `signal` aborts. */
function withTimeout<T>(p: Promise<T>, ms: number, what: () => string, signal?: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const t = new Promise<never>((_, rej) => {
    if (ms > 0) timer = setTimeout(() => rej(new RpcError('RENDEZVOUS', what())), ms);
    onAbort = () => rej(new RpcError('SHUTDOWN', 'the rendezvous was cut short: the thread is being terminated'));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([p, t]).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  });
}

/** What a worker asks the store: to take part in the initial rendezvous, or to join a running group. */
interface Request {
  record: WorkerRecord;
  /** join a running group (initRpc without worldSize); `record.rank` < 0 lets the store pick the id */
  join: boolean;
}

type Reply = { workers: WorkerRecord[]; rank: number } | { error: string };

function parseRequest(frame: Uint8Array | undefined): Request | null {
  let req: Request;
  try {
    req = decode(frame!) as Request;
  } catch {
    return null; // not a wiregrad worker: ignore it
  }
  const rec = req?.record;
  if (
    typeof rec?.name !== 'string' ||
    typeof rec.rank !== 'number' ||
    typeof rec.address !== 'string' ||
    typeof req.join !== 'boolean'
  )
    return null;
  return req;
}

/**
 * Note [Rendezvous]
 * Rank 0 serves a store on a ROUTER at the init address for as long as it is a member. In
 * the initial rendezvous every rank (rank 0 in process) sends its record; when all
 * `worldSize` records are in, the store checks names and ranks and answers everyone with the
 * full table, or with the error. A worker that starts before rank 0 just waits: its DEALER
 * reconnects until rank 0 binds. Afterwards (or from the start, for a group without a
 * worldSize) the store admits joiners one at a time (Note [Membership]): a name must be
 * unique among live members, ids are never reused, and the joiner gets the current table.
 * Members that leave or die are removed from the table by rank 0's agent.
 */
export class RendezvousStore {
  private readonly members = new Map<string, WorkerRecord>();
  private readonly usedIds = new Set<number>();
  private initial: {
    worldSize: number;
    waiting: { id: Uint8Array; record: WorkerRecord }[];
    done: (error?: unknown) => void;
  } | null = null;
  private readonly queuedJoins: { id: Uint8Array; req: Request }[] = [];

  private constructor(
    private readonly router: Router,
    readonly address: string,
  ) {}

  static async start(address: string): Promise<RendezvousStore> {
    const router = new Router({ linger: 1000 });
    try {
      await router.bind(address);
    } catch (e) {
      router.close();
      throw new RpcError(
        'RENDEZVOUS',
        `rank 0 cannot serve the rendezvous at ${address}: ${(e as Error).message} (is the port in use?)`,
      );
    }
    const store = new RendezvousStore(router, address);
    void store.serve();
    return store;
  }

  /** The initial rendezvous of a group of `worldSize` (1 for a group that others join later). */
  async rendezvous(
    self: WorkerRecord,
    worldSize: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<WorkerRecord[]> {
    const waiting: { id: Uint8Array; record: WorkerRecord }[] = [];
    const all = new Promise<void>((resolve, reject) => {
      this.initial = { worldSize, waiting, done: (e) => (e ? reject(e) : resolve()) };
    });
    const records = () => [self, ...waiting.map((w) => w.record)];
    this.arrived();
    try {
      await withTimeout(
        all,
        timeoutMs,
        () => `rendezvous timed out after ${timeoutMs} ms: ${records().length} of ${worldSize} workers joined`,
        signal,
      );
    } catch (e) {
      this.initial = null;
      throw e;
    }
    this.initial = null;
    const error = check(records(), worldSize);
    const table = records().sort((a, b) => a.rank - b.rank);
    for (const w of waiting) await this.answer(w.id, error ? { error } : { workers: table, rank: w.record.rank });
    if (error) throw new RpcError('RENDEZVOUS', error);
    for (const r of table) this.admit(r);
    for (const j of this.queuedJoins.splice(0)) await this.join(j.id, j.req);
    return table;
  }

  /** A member left or died: its name is free again (its id is not). */
  remove(name: string): void {
    this.members.delete(name);
  }

  close(): void {
    this.router.close();
  }

  private admit(r: WorkerRecord): void {
    this.members.set(r.name, r);
    this.usedIds.add(r.rank);
  }

  private arrived(): void {
    const init = this.initial;
    if (init && init.waiting.length + 1 >= init.worldSize) init.done();
  }

  private async serve(): Promise<void> {
    try {
      for await (const [id, frame] of this.router) {
        const req = parseRequest(frame);
        if (!req) continue;
        if (req.join && this.initial) this.queuedJoins.push({ id: id!, req });
        else if (this.initial) {
          this.initial.waiting.push({ id: id!, record: req.record });
          this.arrived();
        } else if (req.join) await this.join(id!, req);
        else
          await this.answer(id!, {
            error: `the group at ${this.address} has already started: join it without a worldSize`,
          });
      }
    } catch {
      // the store closes with its worker
    }
  }

  private async join(id: Uint8Array, { record }: Request): Promise<void> {
    if (this.members.has(record.name))
      return this.answer(id, { error: `RPC worker name ${record.name} is not unique: a live worker has it` });
    let rank = record.rank;
    if (rank >= 0 && this.usedIds.has(rank))
      return this.answer(id, {
        error: `rank ${rank} was already taken in this group (ids are never reused); join without a rank`,
      });
    if (rank < 0) rank = Math.max(-1, ...this.usedIds) + 1;
    const joined = { ...record, rank };
    const workers = [...this.members.values(), joined].sort((a, b) => a.rank - b.rank);
    this.admit(joined);
    await this.answer(id, { workers, rank });
  }

  private answer(id: Uint8Array, reply: Reply): Promise<void> {
    return this.router.send([id, encode(reply)]).catch(() => {});
  }
}

/** Asks the store at `initMethod` for the table: as one of the initial ranks, or as a joiner. */
export async function requestRendezvous(
  initMethod: string,
  record: WorkerRecord,
  join: boolean,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ workers: WorkerRecord[]; rank: number }> {
  const address = storeAddress(initMethod);
  const dealer = new Dealer({ linger: 0, reconnectInterval: 50 });
  try {
    dealer.connect(address);
    await dealer.send(encode({ record, join } satisfies Request));
    const [frame] = await withTimeout(
      dealer.receive(),
      timeoutMs,
      () => `rendezvous timed out after ${timeoutMs} ms waiting for rank 0 at ${address}`,
      signal,
    );
    const reply = decode(frame!) as Reply;
    if ('error' in reply) throw new RpcError('RENDEZVOUS', reply.error);
    return reply;
  } finally {
    dealer.close();
  }
}
