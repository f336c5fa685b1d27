import { randomBytes } from 'node:crypto';
import { decode, encode } from '@msgpack/msgpack';
import { Dealer, Router } from 'zeromq';
import { SECRET_ENV, type GroupSecret } from '../auth/groupSecret.js';
import { mac, macMatches } from '../auth/keys.js';
import { ticket } from '../auth/ticket.js';
import type { DeviceMaps } from '../deviceMaps.js';
import type { LocalEndpoint } from '../agent/localTransport.js';
import { RpcError } from '../errors.js';
import {
  reportWhileWaiting,
  storeCauses,
  storeWaiting,
  workerCauses,
  workerWaiting,
  type WaitReports,
} from './waiting.js';

/** What every worker tells the others at rendezvous. */
export interface WorkerRecord {
  name: string;
  rank: number;
  address: string;
  /** its Unix socket for workers on its machine (Note [Same-machine peers over Unix sockets]) */
  ipc?: LocalEndpoint;
  publicKey: string | null;
  /** the largest frame this worker accepts (its ZMQ_MAXMSGSIZE) */
  maxMessageBytes: number;
  /** its backendOptions.deviceMaps, checked against the others' at rendezvous */
  deviceMaps?: DeviceMaps;
  /** a joiner's proof that the store admitted it (Note [Authenticated membership]) */
  ticket?: string;
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
  const byKey = new Map<string, WorkerRecord>();
  for (const r of records) {
    const other = r.publicKey ? byKey.get(r.publicKey) : undefined;
    if (other) return `workers ${other.name} and ${r.name} present the same public key: a key belongs to one worker`;
    if (r.publicKey) byKey.set(r.publicKey, r);
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
  /** fresh per request: the reply's MAC covers it, so an old reply cannot be replayed */
  nonce: string;
  /** where the worker took its group secret from (for the error when the secrets differ) */
  secretFrom: string | null;
}

type Reply =
  | { workers: WorkerRecord[]; rank: number; ticket?: string }
  | { error: string; code?: 'AUTH'; secretFrom?: string | null };

const REQUEST_MAC = 'wiregrad rendezvous request';
const REPLY_MAC = 'wiregrad rendezvous reply';

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
    typeof req.join !== 'boolean' ||
    typeof req.nonce !== 'string'
  )
    return null;
  return req;
}

/** A waiting worker: its socket identity and its request. */
interface Asker {
  id: Uint8Array;
  req: Request;
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
 * Members that leave or die are removed from the table by rank 0's agent. With a group secret,
 * requests and replies carry MACs (Note [Authenticated membership]). A waiting worker says whom it
 * waits for every few seconds, and a timeout lists the likely causes (waiting.ts).
 */
export class RendezvousStore {
  private readonly members = new Map<string, WorkerRecord>();
  private readonly usedIds = new Set<number>();
  private initial: {
    worldSize: number;
    waiting: Asker[];
    done: (error?: unknown) => void;
  } | null = null;
  private readonly queuedJoins: Asker[] = [];
  /** request nonces seen: a replayed request is ignored */
  private readonly nonces = new Set<string>();

  private constructor(
    private readonly router: Router,
    readonly address: string,
    private readonly secret: GroupSecret | null,
    private readonly onRefused: (why: string) => void,
  ) {}

  static async start(
    address: string,
    secret: GroupSecret | null,
    onRefused: (why: string) => void,
  ): Promise<RendezvousStore> {
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
    const store = new RendezvousStore(router, address, secret, onRefused);
    void store.serve();
    return store;
  }

  /** The initial rendezvous of a group of `worldSize` (1 for a group that others join later). */
  async rendezvous(
    self: WorkerRecord,
    worldSize: number,
    timeoutMs: number,
    signal?: AbortSignal,
    reports?: WaitReports,
  ): Promise<WorkerRecord[]> {
    const waiting: Asker[] = [];
    const all = new Promise<void>((resolve, reject) => {
      this.initial = { worldSize, waiting, done: (e) => (e ? reject(e) : resolve()) };
    });
    const records = () => [self, ...waiting.map((w) => w.req.record)];
    const arrivedRanks = () => records().map((r) => r.rank);
    this.arrived();
    try {
      const timed = withTimeout(
        all,
        timeoutMs,
        () =>
          `rendezvous timed out after ${timeoutMs} ms: ${records().length} of ${worldSize} workers joined` +
          storeCauses(this.address, arrivedRanks(), worldSize),
        signal,
      );
      await reportWhileWaiting(timed, reports, () => storeWaiting(this.address, arrivedRanks(), worldSize));
    } catch (e) {
      this.initial = null;
      throw e;
    }
    this.initial = null;
    const error = check(records(), worldSize);
    const table = records().sort((a, b) => a.rank - b.rank);
    for (const w of waiting) await this.answer(w, error ? { error } : { workers: table, rank: w.req.record.rank });
    if (error) throw new RpcError('RENDEZVOUS', error);
    for (const r of table) this.admit(r);
    for (const j of this.queuedJoins.splice(0)) await this.join(j);
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
      for await (const [id, frame, tag] of this.router) {
        const req = parseRequest(frame);
        if (!req) continue;
        const asker = { id: id!, req };
        if (!(await this.authentic(asker, frame!, tag))) continue;
        if (req.join && this.initial) this.queuedJoins.push(asker);
        else if (this.initial) {
          this.initial.waiting.push(asker);
          this.arrived();
        } else if (req.join) await this.join(asker);
        else
          await this.answer(asker, {
            error: `the group at ${this.address} has already started: join it without a worldSize`,
          });
      }
    } catch {
      // the store closes with its worker
    }
  }

  /**
   * Whether a request proves the group secret (always, for a store without one). One that does
   * not is answered with an AUTH error naming where rank 0 took its secret from, never the secret.
   */
  private async authentic(asker: Asker, body: Uint8Array, tag: Uint8Array | undefined): Promise<boolean> {
    if (!this.secret) return true;
    const { req } = asker;
    if (tag !== undefined && macMatches(tag, this.secret.secret, REQUEST_MAC, body)) {
      if (this.nonces.has(req.nonce)) return false; // a replay
      if (this.nonces.size > 10_000) this.nonces.clear();
      this.nonces.add(req.nonce);
      return true;
    }
    this.onRefused(`a rendezvous request from '${req.record.name}' that did not prove the group secret`);
    await this.router
      .send([asker.id, encode({ error: 'group secret mismatch', code: 'AUTH', secretFrom: this.secret.source })])
      .catch(() => {});
    return false;
  }

  private async join(asker: Asker): Promise<void> {
    const { record } = asker.req;
    if (this.members.has(record.name))
      return this.answer(asker, { error: `RPC worker name ${record.name} is not unique: a live worker has it` });
    const keyOwner = [...this.members.values()].find((m) => record.publicKey && m.publicKey === record.publicKey);
    if (keyOwner)
      return this.answer(asker, {
        error: `the public key of ${record.name} belongs to ${keyOwner.name}: a key belongs to one worker`,
      });
    let rank = record.rank;
    if (rank >= 0 && this.usedIds.has(rank))
      return this.answer(asker, {
        error: `rank ${rank} was already taken in this group (ids are never reused); join without a rank`,
      });
    if (rank < 0) rank = Math.max(-1, ...this.usedIds) + 1;
    const joined = { ...record, rank };
    const workers = [...this.members.values(), joined].sort((a, b) => a.rank - b.rank);
    this.admit(joined);
    await this.answer(asker, { workers, rank, ...(this.secret ? { ticket: ticket(this.secret.secret, joined) } : {}) });
  }

  private answer({ id, req }: Asker, reply: Reply): Promise<void> {
    const body = encode(reply);
    const frames = this.secret ? [id, body, mac(this.secret.secret, REPLY_MAC, req.nonce, body)] : [id, body];
    return this.router.send(frames).catch(() => {});
  }
}

/** Asks the store at `initMethod` for the table: as one of the initial ranks, or as a joiner. */
export async function requestRendezvous(
  initMethod: string,
  record: WorkerRecord,
  join: boolean,
  timeoutMs: number,
  secret: GroupSecret | null,
  signal?: AbortSignal,
  reports?: WaitReports,
): Promise<{ workers: WorkerRecord[]; rank: number; ticket?: string }> {
  const address = storeAddress(initMethod);
  const dealer = new Dealer({ linger: 0, reconnectInterval: 50 });
  try {
    dealer.connect(address);
    const nonce = randomBytes(16).toString('base64');
    const body = encode({ record, join, nonce, secretFrom: secret?.source ?? null } satisfies Request);
    await dealer.send(secret ? [body, mac(secret.secret, REQUEST_MAC, body)] : [body]);
    const [frame, tag] = await reportWhileWaiting(
      withTimeout(
        dealer.receive(),
        timeoutMs,
        () => `rendezvous timed out after ${timeoutMs} ms waiting for rank 0 at ${address}${workerCauses()}`,
        signal,
      ),
      reports,
      (ms) => workerWaiting(address, record.rank, ms),
    );
    const reply = decode(frame!) as Reply;
    const signed = secret !== null && tag !== undefined && macMatches(tag, secret.secret, REPLY_MAC, nonce, frame!);
    if ('error' in reply && reply.code === 'AUTH') throw secretMismatch(address, secret, reply.secretFrom ?? null);
    if (secret && !signed)
      throw new RpcError(
        'AUTH',
        `rank 0 at ${address} did not prove the group secret (this worker took its secret from ${secret.source}); it may run with insecure: true`,
      );
    if ('error' in reply) throw new RpcError('RENDEZVOUS', reply.error);
    return reply;
  } finally {
    dealer.close();
  }
}

function secretMismatch(address: string, mine: GroupSecret | null, theirs: string | null): RpcError {
  return new RpcError(
    'AUTH',
    mine
      ? `rank 0 at ${address} refused this worker: the group secrets differ (this worker took its secret from ${mine.source}; rank 0 took its from ${theirs}). Give every worker the same secret: the same cookie file, ${SECRET_ENV}, or backendOptions.secret`
      : `rank 0 at ${address} requires the group secret (it took its from ${theirs}); this worker runs with insecure: true`,
  );
}
