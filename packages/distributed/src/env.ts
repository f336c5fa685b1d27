import { DistributedError } from './errors.js';
import { expandHostList } from './hostList.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** Where and as whom a process joins its group. */
export interface Rendezvous {
  rank: number;
  worldSize: number;
  localRank: number;
  /** the rendezvous store's address, `tcp://host:port` (rank 0 serves it) */
  storeAddress: string;
}

export interface RendezvousOptions {
  initMethod?: string;
  rank?: number;
  worldSize?: number;
}

/** Who sets each variable, for the error that names a missing one. */
const SET_BY: Readonly<Record<string, string>> = {
  RANK: 'set by wiregrad-run or torchrun for each worker (or pass { rank })',
  WORLD_SIZE: 'set by wiregrad-run or torchrun (or pass { worldSize })',
  MASTER_ADDR:
    "set by wiregrad-run or torchrun; under Slurm it defaults to the first host of SLURM_NODELIST (or use initMethod 'tcp://host:port')",
  MASTER_PORT:
    "set by wiregrad-run or torchrun; under Slurm it defaults to one derived from SLURM_JOB_ID (or use initMethod 'tcp://host:port')",
  SLURM_NTASKS: 'set by srun for each task',
};

function missing(name: string): DistributedError {
  return new DistributedError(
    'MISSING_ENV',
    `environment variable ${name} expected, but not set: ${SET_BY[name] ?? ''}`,
  );
}

function integer(env: Env, name: string, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') throw missing(name);
  const v = Number(raw);
  if (!Number.isSafeInteger(v) || v < min)
    throw new DistributedError(
      'INVALID_ARGUMENT',
      `environment variable ${name} must be an integer >= ${min}, got '${raw}'`,
    );
  return v;
}

/**
 * Note [Slurm master port]
 * Under Slurm (RANK absent, SLURM_PROCID present) the master is the first host of the step's
 * node list and the port is MASTER_PORT, else 15000 + the last four digits of SLURM_JOB_ID
 * (Lightning's and submitit's convention), so two jobs that share a node do not collide.
 */
function slurmPort(env: Env): number {
  if (env.MASTER_PORT) return integer(env, 'MASTER_PORT', 1);
  const job = env.SLURM_JOB_ID;
  if (!job) throw missing('MASTER_PORT');
  return 15000 + Number(job.slice(-4).replace(/\D/g, '') || '0');
}

function slurmMaster(env: Env): string {
  if (env.MASTER_ADDR) return env.MASTER_ADDR;
  const list = env.SLURM_STEP_NODELIST || env.SLURM_JOB_NODELIST || env.SLURM_NODELIST;
  if (!list) throw missing('MASTER_ADDR');
  const first = expandHostList(list)[0];
  if (!first) throw missing('MASTER_ADDR');
  return first;
}

/**
 * Reads initProcessGroup's options and environment: `env://` takes torchrun's RANK,
 * WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT, or without RANK Slurm's SLURM_PROCID,
 * SLURM_NTASKS and SLURM_LOCALID (Note [Slurm master port]); `tcp://host:port` names the store
 * and takes rank and world size from the options or the same variables. Options win.
 */
export function rendezvousOf(opts: RendezvousOptions, env: Env): Rendezvous {
  const initMethod = opts.initMethod ?? 'env://';
  const slurm = env.RANK === undefined && env.SLURM_PROCID !== undefined;
  const rank = opts.rank ?? integer(env, slurm ? 'SLURM_PROCID' : 'RANK', 0);
  const worldSize = opts.worldSize ?? integer(env, slurm ? 'SLURM_NTASKS' : 'WORLD_SIZE', 1);
  const localName = slurm ? 'SLURM_LOCALID' : 'LOCAL_RANK';
  const localRank = env[localName] === undefined ? rank : integer(env, localName, 0);
  if (!Number.isInteger(worldSize) || worldSize < 1)
    throw new DistributedError('INVALID_ARGUMENT', `worldSize must be a positive integer, got ${worldSize}`);
  if (!Number.isInteger(rank) || rank < 0 || rank >= worldSize)
    throw new DistributedError('INVALID_ARGUMENT', `rank must be an integer in [0, ${worldSize}), got ${rank}`);
  let storeAddress: string;
  if (initMethod === 'env://') {
    const addr = slurm ? slurmMaster(env) : env.MASTER_ADDR;
    if (!addr) throw missing('MASTER_ADDR');
    const port = slurm ? slurmPort(env) : integer(env, 'MASTER_PORT', 1);
    storeAddress = `tcp://${addr}:${port}`;
  } else if (/^tcp:\/\/[^:/]+:\d+$/.test(initMethod)) {
    storeAddress = initMethod;
  } else {
    throw new DistributedError(
      'INVALID_ARGUMENT',
      `initMethod must be 'env://' or 'tcp://host:port', got '${initMethod}'`,
    );
  }
  return { rank, worldSize, localRank, storeAddress };
}
