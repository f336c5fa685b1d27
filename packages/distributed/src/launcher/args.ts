import { DistributedError } from '../errors.js';

/** wiregrad-run's options: torchrun's flags (torch/distributed/run.py), camelCased. */
export interface RunArgs {
  nprocPerNode: number;
  nnodes: number;
  nodeRank: number;
  masterAddr: string;
  /** null with --standalone: a free port is picked for each run */
  masterPort: number | null;
  maxRestarts: number;
  standalone: boolean;
  /** the script to run (.js, .mjs, .cjs or .ts) and its own arguments */
  script: string;
  scriptArgs: string[];
}

export const USAGE = `usage: wiregrad-run [--nproc-per-node N] [--nnodes N] [--node-rank R] [--master-addr ADDR]
                    [--master-port PORT] [--max-restarts N] [--standalone] script [script args...]`;

const INTEGER_FLAGS: Record<string, keyof RunArgs> = {
  'nproc-per-node': 'nprocPerNode',
  nnodes: 'nnodes',
  'node-rank': 'nodeRank',
  'master-port': 'masterPort',
  'max-restarts': 'maxRestarts',
};

const usage = (message: string) => new DistributedError('INVALID_ARGUMENT', `${message}\n${USAGE}`);

/**
 * Parses torchrun's command line: `--flag value` or `--flag=value`, snake_case or kebab-case
 * (torchrun takes both), up to the script; everything after the script is the script's.
 */
export function parseRunArgs(argv: readonly string[]): RunArgs {
  const a: RunArgs = {
    nprocPerNode: 1,
    nnodes: 1,
    nodeRank: 0,
    masterAddr: '127.0.0.1',
    masterPort: 29500,
    maxRestarts: 0,
    standalone: false,
    script: '',
    scriptArgs: [],
  };
  let portGiven = false;
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) break;
    const eq = arg.indexOf('=');
    const name = (eq < 0 ? arg.slice(2) : arg.slice(2, eq)).replaceAll('_', '-');
    if (name === 'standalone') {
      a.standalone = true;
      continue;
    }
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw usage(`--${name} needs a value`);
    if (name === 'master-addr') {
      a.masterAddr = value;
      continue;
    }
    const key = INTEGER_FLAGS[name];
    if (!key) throw usage(`unknown option --${name}`);
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 0) throw usage(`--${name} must be a non-negative integer, got '${value}'`);
    (a as unknown as Record<string, number>)[key] = n;
    if (key === 'masterPort') portGiven = true;
  }
  a.script = argv[i] ?? '';
  a.scriptArgs = argv.slice(i + 1);
  if (!a.script) throw usage('no script to run');
  if (a.nprocPerNode < 1 || a.nnodes < 1) throw usage('--nproc-per-node and --nnodes must be at least 1');
  if (a.nodeRank >= a.nnodes) throw usage(`--node-rank must be in [0, ${a.nnodes}), got ${a.nodeRank}`);
  if (a.standalone) {
    if (a.nnodes !== 1) throw usage('--standalone runs a single node: --nnodes must be 1');
    a.masterAddr = '127.0.0.1';
    if (!portGiven) a.masterPort = null;
  }
  return a;
}

/** The variables torchrun sets for local worker `local` of a run (torch/distributed/elastic/agent). */
export function workerEnv(a: RunArgs, local: number, port: number, restartCount: number, runId: string) {
  return {
    RANK: String(a.nodeRank * a.nprocPerNode + local),
    LOCAL_RANK: String(local),
    WORLD_SIZE: String(a.nnodes * a.nprocPerNode),
    LOCAL_WORLD_SIZE: String(a.nprocPerNode),
    GROUP_RANK: String(a.nodeRank),
    ROLE_RANK: String(a.nodeRank * a.nprocPerNode + local),
    ROLE_WORLD_SIZE: String(a.nnodes * a.nprocPerNode),
    MASTER_ADDR: a.masterAddr,
    MASTER_PORT: String(port),
    TORCHELASTIC_RESTART_COUNT: String(restartCount),
    TORCHELASTIC_MAX_RESTARTS: String(a.maxRestarts),
    TORCHELASTIC_RUN_ID: runId,
  };
}
