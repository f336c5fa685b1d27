import { decode, encode } from '@msgpack/msgpack';
import { Dealer, Router } from 'zeromq';
import { RpcError } from '../errors.js';

/** What every worker tells the others at rendezvous. */
export interface WorkerRecord {
  name: string;
  rank: number;
  address: string;
  publicKey: string | null;
  /** the largest frame this worker accepts (its ZMQ_MAXMSGSIZE) */
  maxMessageBytes: number;
}

type Reply = { workers: WorkerRecord[] } | { error: string };

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
    if (other) return `RPC worker name ${r.name} is not unique. Workers ${other.rank} and ${r.rank} share the same name`;
    byName.set(r.name, r);
  }
  const ranks = new Set(records.map((r) => r.rank));
  if (ranks.size !== records.length) return `two workers claim the same rank among ${records.map((r) => `${r.name}:${r.rank}`).join(', ')}`;
  for (const r of records) if (r.rank < 0 || r.rank >= worldSize) return `rank ${r.rank} of ${r.name} is outside [0, ${worldSize})`;
  return null;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  if (ms <= 0) return p;
  let timer: NodeJS.Timeout;
  const t = new Promise<never>((_, rej) => {
    timer = setTimeout(() => rej(new RpcError('RENDEZVOUS', what)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/**
 * Note [Rendezvous]
 * Rank 0 serves a one-shot store on a ROUTER at the init address; every rank (rank 0
 * through the same path, in process) sends its record; when all `worldSize` records are in,
 * rank 0 checks names and ranks and answers everyone with the full table, or with the error.
 * A worker that starts before rank 0 just waits: its DEALER reconnects until rank 0 binds.
 */
export async function rendezvous(initMethod: string, self: WorkerRecord, worldSize: number, timeoutMs: number): Promise<WorkerRecord[]> {
  const address = storeAddress(initMethod);
  if (self.rank === 0) return serve(address, self, worldSize, timeoutMs);
  const dealer = new Dealer({ linger: 0, reconnectInterval: 50 });
  try {
    dealer.connect(address);
    await dealer.send(encode(self));
    const [frame] = await withTimeout(dealer.receive(), timeoutMs, `rendezvous timed out after ${timeoutMs} ms waiting for rank 0 at ${address}`);
    const reply = decode(frame!) as Reply;
    if ('error' in reply) throw new RpcError('RENDEZVOUS', reply.error);
    return reply.workers;
  } finally {
    dealer.close();
  }
}

async function serve(address: string, self: WorkerRecord, worldSize: number, timeoutMs: number): Promise<WorkerRecord[]> {
  const router = new Router({ linger: 1000 });
  try {
    await router.bind(address);
  } catch (e) {
    router.close();
    throw new RpcError('RENDEZVOUS', `rank 0 cannot serve the rendezvous at ${address}: ${(e as Error).message} (is the port in use?)`);
  }
  try {
    const records: WorkerRecord[] = [self];
    const peers: Uint8Array[] = [];
    const collect = async () => {
      while (records.length < worldSize) {
        const [id, frame] = await router.receive();
        let rec: WorkerRecord;
        try {
          rec = decode(frame!) as WorkerRecord;
        } catch {
          continue; // not a wiregrad worker: ignore it
        }
        if (typeof rec?.name !== 'string' || typeof rec.rank !== 'number' || typeof rec.address !== 'string') continue;
        records.push(rec);
        peers.push(id!);
      }
    };
    await withTimeout(collect(), timeoutMs, `rendezvous timed out after ${timeoutMs} ms: ${records.length} of ${worldSize} workers joined`);
    const error = check(records, worldSize);
    const reply: Reply = error ? { error } : { workers: records.sort((a, b) => a.rank - b.rank) };
    for (const id of peers) await router.send([id, encode(reply)]);
    if (error) throw new RpcError('RENDEZVOUS', error);
    return records;
  } finally {
    router.close();
  }
}
