import { manualSeed, randn, tensor, toTypedArray, type Tensor } from '@wiregrad/autograd';
import { SGD } from '@wiregrad/nn/optim';
import {
  RRef,
  getWorkerInfos,
  initRpc,
  maybeRpcState,
  onWorkerLeave,
  register,
  rpcSync,
  shutdown,
} from '@wiregrad/rpc/internal';
import { DistributedOptimizer, backward, context } from '@wiregrad/dist-autograd';
import type { ScenarioContext } from '@wiregrad/test-helpers';

/**
 * A deterministic parameter-server training of three workers: `ps` (rank 0) owns a 4-16-3
 * MLP's parameters and runs its forward; `trainer1` and `trainer2` each step on their own
 * synthetic data with distributed backward and a DistributedOptimizer (SGD, momentum) over
 * the parameters' RRefs, as apps/demo's parameter-server example does. The trainers take
 * turns in a fixed order (trainer1 step 0, trainer2 step 0, trainer1 step 1, ...), which the
 * ps enforces, so every run applies the same updates in the same order and the final
 * parameters are identical bit for bit, whatever the network in between.
 */
export interface TrainingOptions {
  rank: number;
  initMethod: string;
  listenAddress?: string;
  /** the address peers connect to, when it is not the listen address (a proxy in front of it) */
  advertisedAddress?: string;
  /** steps per trainer (default 10) */
  steps?: number;
  seed?: number;
  /** seconds (default 30) */
  rpcTimeout?: number;
  /** ms (default 1000, the agent's): a peer silent three of these is dead (Note [Peer liveness]) */
  heartbeatMs?: number;
  /** the ps holds turn `pauseAtTurn` back for `pauseMs` (a quiet moment for a network spec) */
  pauseAtTurn?: number;
  pauseMs?: number;
  /** report every phase of every step as an event (for a spec's story of a failure) */
  trace?: boolean;
  /** no authentication nor encryption (a spec that finds a call on the wire by its bytes) */
  insecure?: boolean;
  /** false: TCP even between workers on one machine (network namespaces share the file system; Note [Same-machine peers over Unix sockets]) */
  ipc?: boolean;
  onEvent?: (e: TrainingEvent) => void;
}

export type TrainingEvent =
  | { event: 'ready'; rank: number }
  | { event: 'step'; rank: number; step: number; ms: number; loss: number }
  | { event: 'paused'; rank: number; turn: number }
  | { event: 'failed'; rank: number; error: ErrorInfo }
  | { event: 'phase'; rank: number; phase: string; step: number }
  | { event: 'left'; rank: number; worker: string; reason: string };

export interface ErrorInfo {
  name: string;
  code: string | null;
  message: string;
  /** what the worker was doing: 'init', 'turn', 'forward', 'backward', 'optimizer', 'done', 'finish', 'shutdown' (the ps: 'serve') */
  during: string;
}

export type TrainingResult =
  | { ok: true; rank: number; params: number[][]; stepMs: number[]; losses: number[]; seconds: number }
  | { ok: false; rank: number; error: ErrorInfo };

export const WORLD_SIZE = 3;
export const workerName = (rank: number) => (rank === 0 ? 'ps' : `trainer${rank}`);

// ---- the parameter server's side ----------------------------------------------------------

let params: Tensor[] | null = null;
let released = 0;
const waiters = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
let aborted: string | null = null;
const finished = new Set<number>();
let onAllFinished: { resolve: () => void; reject: (e: Error) => void } | null = null;
let psOptions: TrainingOptions | null = null;

function forward(x: Tensor): Tensor {
  const [w1, b1, w2, b2] = params!;
  return x.matmul(w1!.t()).add(b1!).relu().matmul(w2!.t()).add(b2!);
}

function release(turn: number): void {
  released = turn;
  const w = waiters.get(turn);
  waiters.delete(turn);
  w?.resolve();
}

register('net.init', (seed: number) => {
  if (!params) {
    manualSeed(seed);
    params = [[16, 4], [16], [3, 16], [3]].map((shape) => {
      const p = randn(shape).mul(0.5);
      p.requiresGrad = true;
      return p;
    });
  }
  return params.map((p) => new RRef(p));
});
register('net.forward', (x: Tensor) => forward(x));
/** Resolves when it is `rank`'s turn for `step`: turns go trainer1, trainer2, trainer1, ... */
register('net.turn', (rank: number, step: number) => {
  if (aborted) throw new Error(`training aborted: ${aborted}`);
  const turn = 2 * step + rank - 1;
  if (released >= turn) return turn;
  return new Promise<number>((resolve, reject) => waiters.set(turn, { resolve: () => resolve(turn), reject }));
});
register('net.done', (rank: number, step: number) => {
  const turn = 2 * step + rank - 1;
  if (turn !== released) throw new Error(`trainer${rank} finished step ${step} out of turn (turn ${released} is open)`);
  const o = psOptions!;
  if (turn + 1 === o.pauseAtTurn) {
    o.onEvent?.({ event: 'paused', rank: 0, turn: turn + 1 });
    setTimeout(() => release(turn + 1), o.pauseMs ?? 1000);
  } else release(turn + 1);
  return true;
});
register('net.finished', (rank: number) => {
  finished.add(rank);
  if (finished.size === WORLD_SIZE - 1) onAllFinished?.resolve();
  return finished.size;
});

/** Ends the training on the ps: every waiting turn and the ps itself fail with `why`. */
function abort(why: string): void {
  aborted ??= why;
  const e = new Error(`training aborted: ${aborted}`);
  for (const w of waiters.values()) w.reject(e);
  waiters.clear();
  onAllFinished?.reject(e);
}
register('net.abort', (rank: number, message: string) => {
  abort(`${workerName(rank)} failed: ${message}`);
  return true;
});

// ---- both sides ---------------------------------------------------------------------------

/** The trainers' target: a fixed teacher network. */
const TEACHER = tensor([
  [0.5, -1, 0.25],
  [1, 0.5, -0.5],
  [-0.75, 0.25, 1],
  [0.3, -0.2, 0.6],
]);

/** What this worker is doing now (reported with a failure). */
let phase = 'init';
let tracing: ((phase: string, step: number) => void) | null = null;
function enter(p: string, step = -1): void {
  phase = p;
  tracing?.(p, step);
}

function errorInfo(e: unknown): ErrorInfo {
  const err = e as { name?: string; code?: unknown; message?: string };
  return {
    name: String(err?.name ?? 'Error'),
    code: typeof err?.code === 'string' ? err.code : null,
    message: String(err?.message ?? e),
    during: phase,
  };
}

async function runPs(o: TrainingOptions): Promise<TrainingResult> {
  psOptions = o;
  enter('serve');
  const done = new Promise<void>((resolve, reject) => (onAllFinished = { resolve, reject }));
  // a trainer that leaves the group before it finished (it died, or heartbeats stopped) ends the training
  const unsubscribe = onWorkerLeave((info, reason) => {
    o.onEvent?.({ event: 'left', rank: 0, worker: info.name, reason });
    const rank = [1, 2].find((r) => workerName(r) === info.name);
    if (rank !== undefined && !finished.has(rank)) abort(`${info.name} left the group (${reason}) before it finished`);
  });
  const t0 = performance.now();
  try {
    await done;
  } finally {
    unsubscribe();
  }
  const values = params!.map((p) => Array.from(toTypedArray(p)));
  return { ok: true, rank: 0, params: values, stepMs: [], losses: [], seconds: (performance.now() - t0) / 1000 };
}

async function runTrainer(o: TrainingOptions): Promise<TrainingResult> {
  const { rank } = o;
  const refs = await rpcSync<RRef<Tensor>[]>('ps', 'net.init', [o.seed ?? 0]);
  const opt = new DistributedOptimizer(SGD, refs, { lr: 0.05, momentum: 0.9 });
  manualSeed(1000 * (o.seed ?? 0) + rank);
  const stepMs: number[] = [];
  const losses: number[] = [];
  const t0 = performance.now();
  for (let step = 0; step < (o.steps ?? 10); step++) {
    const x = randn([8, 4]);
    const y = x.matmul(TEACHER).tanh();
    enter('turn', step);
    // a turn may wait for the other trainer's whole step: no timeout (an abort or a lost ps ends it)
    await rpcSync('ps', 'net.turn', [rank, step], { timeout: 0 });
    const s0 = performance.now();
    await context(async (id) => {
      enter('forward', step);
      const out = await rpcSync<Tensor>('ps', 'net.forward', [x]);
      const loss = out.sub(y).pow(2).mean();
      enter('backward', step);
      await backward(id, [loss]);
      enter('optimizer', step);
      await opt.step(id);
      losses.push(loss.item());
    });
    stepMs.push(performance.now() - s0);
    enter('done', step);
    await rpcSync('ps', 'net.done', [rank, step]);
    o.onEvent?.({ event: 'step', rank, step, ms: stepMs[step]!, loss: losses[step]! });
  }
  const seconds = (performance.now() - t0) / 1000;
  enter('finish');
  await rpcSync('ps', 'net.finished', [rank]);
  await Promise.all(refs.map((r) => r.release()));
  return { ok: true, rank, params: [], stepMs, losses, seconds };
}

/** Tells the ps a trainer failed, so nobody waits for its turns; retried while the network recovers and the ps is a member. */
async function abortTraining(rank: number, message: string): Promise<void> {
  for (let attempt = 0; attempt < 8 && getWorkerInfos().some((w) => w.name === 'ps'); attempt++) {
    try {
      await rpcSync('ps', 'net.abort', [rank, message], { timeout: 2 });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** Runs one worker of the training, start to shutdown; never throws (a failure is a result). */
export async function train(o: TrainingOptions): Promise<TrainingResult> {
  if (o.trace) tracing = (p, step) => o.onEvent?.({ event: 'phase', rank: o.rank, phase: p, step });
  let result: TrainingResult;
  try {
    await initRpc(workerName(o.rank), {
      rank: o.rank,
      worldSize: WORLD_SIZE,
      backendOptions: {
        initMethod: o.initMethod,
        rpcTimeout: o.rpcTimeout ?? 30,
        ...(o.heartbeatMs ? { heartbeatMs: o.heartbeatMs } : {}),
        ...(o.listenAddress ? { listenAddress: o.listenAddress } : {}),
        ...(o.advertisedAddress ? { advertisedAddress: o.advertisedAddress } : {}),
        ...(o.insecure ? { insecure: true } : {}),
        ...(o.ipc === false ? { ipc: false } : {}),
      },
    });
    o.onEvent?.({ event: 'ready', rank: o.rank });
    result = o.rank === 0 ? await runPs(o) : await runTrainer(o);
  } catch (e) {
    result = { ok: false, rank: o.rank, error: errorInfo(e) };
    o.onEvent?.({ event: 'failed', rank: o.rank, error: result.error });
    if (o.rank !== 0 && maybeRpcState()) await abortTraining(o.rank, result.error.message);
  }
  if (maybeRpcState()) {
    try {
      await shutdown(result.ok ? { timeout: 30 } : { graceful: false });
    } catch (e) {
      if (result.ok) result = { ok: false, rank: o.rank, error: errorInfo(e) };
    }
  }
  return result;
}

/** In-process entry for the worker_threads harness (`runWorkers`): `extra` holds the other options. */
export function run({ rank, initMethod, extra }: ScenarioContext): Promise<TrainingResult> {
  return train({ ...(extra as Partial<TrainingOptions>), rank, initMethod });
}
