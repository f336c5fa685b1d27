import { RpcError, getWorkerInfos, initRpc, onWorkerLeave, register, shutdown } from '@wiregrad/rpc';
import { notify, rpcState } from '@wiregrad/rpc/internal';
import { dirname } from 'node:path';
import { LocalPairs, type LocalPairEndpoint } from './collectives/localPairs.js';
import type { Tensor } from '@wiregrad/autograd';
import { type Chunk, type Descriptor, Mailbox } from './collectives/mailbox.js';
import { type Env, rendezvousOf } from './env.js';
import { DistributedError } from './errors.js';

/** The RPC worker name of global rank `r`. */
export const workerName = (r: number) => `rank${r}`;
const DELIVER = '_wiregrad.c10d.deliver';

/**
 * A group of ranks that run collectives together (torch.distributed.ProcessGroup). `ranks` are
 * global ranks in group order; `rank` is this process's rank in the group (-1: not a member).
 */
export class ProcessGroup {
  /** the collectives this rank started on this group: the next one's sequence number (Note [Collective mailbox]) */
  seq = 0;
  constructor(
    readonly id: number,
    readonly ranks: readonly number[],
    readonly rank: number,
  ) {}

  size(): number {
    return this.ranks.length;
  }
}

interface World {
  rank: number;
  worldSize: number;
  localRank: number;
  defaultGroup: ProcessGroup;
  /** newGroup calls so far: the next group's id (every rank calls newGroup in the same order) */
  groups: number;
  mailbox: Mailbox;
  /** the Unix-socket pairs to the ranks on this machine (Note [Local pairs]); null: every chunk goes through RPC */
  pairs: LocalPairs | null;
  /** how long a broken local pair waits for the group's verdict (RPC's dead-peer window and some) */
  verdictMs: number;
  stopListening: () => void;
}

let world: World | null = null;

function current(): World {
  if (!world)
    throw new DistributedError(
      'NOT_INITIALIZED',
      'Default process group has not been initialized, please make sure to call initProcessGroup.',
    );
  return world;
}

export interface InitProcessGroupOptions {
  /** 'env://' (default: torchrun's or Slurm's variables) or 'tcp://host:port' */
  initMethod?: string;
  rank?: number;
  worldSize?: number;
  /** ms the rendezvous and each message may take (default 30 min, as PyTorch) */
  timeout?: number;
  /** heartbeat interval of the transport, in ms (default 1000; a dead rank is noticed after 3 of them) */
  heartbeatMs?: number;
  /** ranks on one machine send chunks over Unix sockets of their own (default true; Note [Local pairs]); false: through RPC */
  localPairs?: boolean;
}

/**
 * Note [Collectives ride on RPC]
 * The process group is an RPC group (@wiregrad/rpc's ZeroMQ agent) whose workers are named
 * rank0..rankN-1: its rendezvous (rank 0 serves the store at MASTER_ADDR:MASTER_PORT), its
 * heartbeats and its dead-peer detection are the group's. A collective sends each chunk as a
 * one-way message (Note [One-way messages]) that runs one registered function, which drops it
 * into the receiver's mailbox (Note [Collective mailbox]): one message per chunk, exactly once
 * across connection resets; its receipt tells the sender it arrived. When any member leaves or dies, every
 * pending and later collective of this process fails with PEER_GONE, within RPC's heartbeat
 * window (3 heartbeats), never a hang: a collective needs every member.
 */
export async function initProcessGroup(opts: InitProcessGroupOptions = {}, env: Env = process.env): Promise<void> {
  if (world) throw new DistributedError('ALREADY_INITIALIZED', 'trying to initialize the default process group twice!');
  const { rank, worldSize, localRank, storeAddress } = rendezvousOf(opts, env);
  const timeout = opts.timeout ?? 30 * 60_000;
  const host = /^tcp:\/\/(.+):\d+$/.exec(storeAddress)![1]!;
  const loopback = host === 'localhost' || host.startsWith('127.');
  const mailbox = new Mailbox();
  register(DELIVER, (key: string, meta: Descriptor, data: Tensor | null) => void mailbox.put(key, { meta, data }));
  try {
    await initRpc(workerName(rank), {
      rank,
      worldSize,
      backendOptions: {
        initMethod: storeAddress,
        rpcTimeout: timeout / 1000,
        listenAddress: loopback ? 'tcp://127.0.0.1:0' : 'tcp://0.0.0.0:0',
        ...(opts.heartbeatMs ? { heartbeatMs: opts.heartbeatMs } : {}),
      },
    });
  } catch (e) {
    throw new DistributedError('INVALID_ARGUMENT', `rendezvous at ${storeAddress} failed: ${(e as Error).message}`, {
      cause: e,
    });
  }
  const stopListening = onWorkerLeave((info, reason) =>
    mailbox.fail(
      new DistributedError(
        'PEER_GONE',
        reason === 'dead'
          ? `${info.name} stopped answering (it died or hung): the process group is broken`
          : `${info.name} left the process group: it is broken`,
      ),
    ),
  );
  const all = Array.from({ length: worldSize }, (_, r) => r);
  let pairs: LocalPairs | null = null;
  try {
    pairs = await meetLocalPairs(rank, worldSize, mailbox, opts.localPairs ?? true);
  } catch (e) {
    stopListening();
    await shutdown({ graceful: false });
    throw e;
  }
  world = {
    rank,
    worldSize,
    localRank,
    defaultGroup: new ProcessGroup(0, all, rank),
    groups: 1,
    mailbox,
    pairs,
    verdictMs: 3 * (opts.heartbeatMs ?? 1000) + 2000,
    stopListening,
  };
}

/**
 * Every rank tells every other where its local pairs listen (null: nowhere), over RPC, and
 * connects to those on its machine (Note [Local pairs]). A pair that cannot connect leaves that
 * rank's chunks to RPC.
 */
async function meetLocalPairs(
  rank: number,
  worldSize: number,
  mailbox: Mailbox,
  wanted: boolean,
): Promise<LocalPairs | null> {
  const local = wanted ? rpcState().agent.localEndpoint : null;
  const pairs = local
    ? await LocalPairs.listen(dirname(local.address.slice('ipc://'.length)), local.host, (key, chunk) =>
        mailbox.put(key, chunk),
      ).catch(() => null)
    : null;
  const others = Array.from({ length: worldSize }, (_, r) => r).filter((r) => r !== rank);
  const hello = { kind: 'hello', extra: JSON.stringify(pairs?.endpoint ?? null) };
  await Promise.all(others.map((r) => deliver(r, `hello|${rank}`, { meta: hello, data: null }, true)));
  const theirs = await Promise.all(others.map((r) => mailbox.take(`hello|${r}`)));
  if (!pairs) return null;
  await Promise.all(
    theirs.map(async ({ meta }) => {
      const at = JSON.parse(meta.extra ?? 'null') as LocalPairEndpoint | null;
      if (at && at.host === pairs.endpoint.host) await pairs.connect(rank, at).catch(() => {});
    }),
  );
  return pairs;
}

/** Leaves the group (torch.distributed.destroy_process_group); pending collectives fail with DESTROYED. */
export async function destroyProcessGroup(): Promise<void> {
  const w = current();
  world = null;
  w.stopListening();
  w.mailbox.fail(new DistributedError('DESTROYED', 'the process group was destroyed'));
  w.pairs?.close();
  // graceful while every member is alive: each waits until the others are done with it
  const everyone = getWorkerInfos().length === w.worldSize;
  await shutdown({ graceful: everyone, timeout: 30 }).catch(() => shutdown({ graceful: false }));
}

export const isInitialized = (): boolean => world !== null;

/** This process's rank in `group` (default: the world); -1 if it is not a member. */
export function getRank(group?: ProcessGroup): number {
  const w = current();
  return group ? group.rank : w.rank;
}

export function getWorldSize(group?: ProcessGroup): number {
  const w = current();
  return group ? group.size() : w.worldSize;
}

/** LOCAL_RANK (or SLURM_LOCALID): this process's index on its machine. */
export function getLocalRank(): number {
  return current().localRank;
}

/** The group a collective runs on, checked: this process must be one of its members. */
export function groupOf(group: ProcessGroup | undefined): ProcessGroup {
  const w = current();
  const g = group ?? w.defaultGroup;
  if (g.rank < 0)
    throw new DistributedError(
      'NOT_A_MEMBER',
      `rank ${w.rank} is not a member of the group of ranks [${g.ranks.join(', ')}]`,
    );
  return g;
}

/** The mailbox of this process (Note [Collective mailbox]); throws when the group is broken. */
export function mailbox(): Mailbox {
  const m = current().mailbox;
  if (m.broken) throw m.broken;
  return m;
}

/** Whether this rank sends to every other member of `group` over a local pair (Note [Ring pieces]). */
export function sendsLocallyTo(group: ProcessGroup): boolean {
  const w = current();
  return group.ranks.every((r) => r === w.rank || w.pairs?.has(r) === true);
}

/**
 * Delivers `chunk` to global rank `to` under `key`. Over a local pair (Note [Local pairs]) it
 * resolves once the kernel holds it; over RPC once it is in that rank's mailbox (`confirm`: that
 * rank confirms it at once, rather than with the next batch of receipts). Either way the chunk's
 * memory is free again then.
 */
export async function deliver(to: number, key: string, chunk: Chunk, confirm = false): Promise<void> {
  const w = world;
  // a broken pair is not a verdict: the group's (who died or left) names the rank to blame (Note [Local pairs])
  if (w?.pairs?.has(to)) return w.pairs.send(to, key, chunk).catch((e: unknown) => w.mailbox.verdict(e, w.verdictMs));
  try {
    await notify(workerName(to), DELIVER, [key, chunk.meta, chunk.data], { confirm });
  } catch (e) {
    const broken = world?.mailbox.broken;
    if (broken) throw broken;
    if (e instanceof RpcError && (e.code === 'PEER_DISCONNECTED' || e.code === 'UNKNOWN_WORKER'))
      throw new DistributedError('PEER_GONE', `${workerName(to)} is gone: ${e.message}`, { cause: e });
    throw e;
  }
}

/** Counts a newGroup call (every rank calls newGroup in the same order): the new group's id. */
export function nextGroupId(): number {
  return current().groups++;
}

export function defaultGroup(): ProcessGroup {
  return current().defaultGroup;
}
