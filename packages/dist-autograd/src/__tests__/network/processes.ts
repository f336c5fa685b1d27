import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { bundleFixtures } from '@wiregrad/test-helpers';
import type { TrainingEvent, TrainingResult } from './psTraining.js';

const packageDir = fileURLToPath(new URL('../../../', import.meta.url));
// bundled once per spec file: each worker starts in a fraction of tsx's cpu (Note [Bundled fixtures])
const script = (await bundleFixtures([fileURLToPath(new URL('./psWorker.ts', import.meta.url))])).file('psWorker');

export type Line = (TrainingEvent | ({ event: 'result' } & TrainingResult) | { event: 'deadline'; rank: number }) & {
  at: number;
};

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  result: TrainingResult | null;
  lines: Line[];
  stderr: string;
  /** ms from start to exit */
  ms: number;
}

/** One psWorker.ts process: its JSON lines (stamped with the time they arrived) and its exit. */
export class WorkerProcess {
  readonly lines: Line[] = [];
  stderr = '';
  readonly exited: Promise<Exit>;
  private readonly child: ChildProcess;
  private readonly listeners = new Set<() => void>();
  private alive = true;

  constructor(
    readonly rank: number,
    args: Record<string, string | number>,
    /** a command to run node under, e.g. ['ip', 'netns', 'exec', 'ns1'] */
    prefix: string[] = [],
  ) {
    const argv = [
      process.execPath,
      script,
      '--rank',
      String(rank),
      ...Object.entries(args).flatMap(([k, v]) => [`--${k}`, String(v)]),
    ];
    const t0 = performance.now();
    const [command, ...rest] = [...prefix, ...argv];
    this.child = spawn(command!, rest, { cwd: packageDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let buffered = '';
    this.child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      buffered += d;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.startsWith('{')) this.lines.push({ ...(JSON.parse(line) as Line), at: performance.now() });
        for (const f of this.listeners) f();
      }
    });
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        this.alive = false;
        for (const f of this.listeners) f();
        const r = this.lines.find((l) => l.event === 'result') as (TrainingResult & { event: 'result' }) | undefined;
        resolve({
          code,
          signal,
          result: r ?? null,
          lines: this.lines,
          stderr: this.stderr,
          ms: performance.now() - t0,
        });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Resolves with the first line matching `match` (rejects after `timeoutMs` or when the process ends without it). */
  waitFor(match: (l: Line) => boolean, timeoutMs: number): Promise<Line> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = this.lines.find(match);
        if (hit) return done(() => resolve(hit));
        if (!this.alive)
          done(() =>
            reject(new Error(`rank ${this.rank} exited without the line awaited; stderr: ${this.stderr.slice(-2000)}`)),
          );
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`rank ${this.rank}: no such line within ${timeoutMs} ms`))),
        timeoutMs,
      );
      const done = (f: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        f();
      };
      this.listeners.add(check);
      check();
    });
  }

  /** SIGKILLs the process if it still runs, and waits for it to be gone. */
  async kill(): Promise<void> {
    if (this.alive) this.child.kill('SIGKILL');
    await this.exited;
  }
}

/** Starts psWorker.ts processes and kills whichever still run at teardown. */
export class WorkerProcesses {
  private readonly all = new Set<WorkerProcess>();

  start(rank: number, args: Record<string, string | number>, prefix?: string[]): WorkerProcess {
    const p = new WorkerProcess(rank, args, prefix);
    this.all.add(p);
    return p;
  }

  async killAll(): Promise<void> {
    await Promise.all([...this.all].map((p) => p.kill()));
    this.all.clear();
  }
}

/** Waits for every process to exit, failing after `timeoutMs` (the processes are then killed by teardown). */
export async function exits(procs: WorkerProcess[], timeoutMs: number): Promise<Exit[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const last = procs.map(
        (p) =>
          `rank ${p.rank}: ${p.lines
            .slice(-4)
            .map((l) => JSON.stringify(l).slice(0, 300))
            .join(' ')} ${p.stderr.slice(-500)}`,
      );
      reject(new Error(`workers still running after ${timeoutMs} ms\n${last.join('\n')}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([Promise.all(procs.map((p) => p.exited)), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? Number.NaN
    : s.length % 2
      ? s[(s.length - 1) / 2]!
      : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** The training every network spec runs (psTraining.ts): steps per trainer and seed. */
export const TRAINING = { steps: 8, seed: 7 } as const;

/** Three worker processes on loopback, each listening on a port of its own; rank 0 serves the rendezvous. */
export async function loopbackRun(procs: WorkerProcesses, args: Record<string, string | number> = {}): Promise<Exit[]> {
  const [store, ...ports] = await freePorts(4);
  const workers = [0, 1, 2].map((r) =>
    procs.start(r, {
      initMethod: `tcp://127.0.0.1:${store}`,
      listenAddress: `tcp://127.0.0.1:${ports[r]}`,
      ...TRAINING,
      ...args,
    }),
  );
  return exits(workers, 60_000);
}

/** `n` distinct free ports (held open together while they are picked). */
export async function freePorts(n: number, host = '127.0.0.1'): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Server>((resolve, reject) => {
          const srv = createServer();
          srv.on('error', reject);
          srv.listen(0, host, () => resolve(srv));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

/** The successful result of a worker (fails the spec with the worker's result and stderr otherwise). */
export function okResult(e: Exit): Extract<TrainingResult, { ok: true }> {
  expect(
    e.result,
    `exit ${e.code}/${e.signal}: ${JSON.stringify(e.result)}; stderr: ${e.stderr.slice(-3000)}`,
  ).toMatchObject({ ok: true });
  return e.result as Extract<TrainingResult, { ok: true }>;
}

/** Every trainer step's duration (ms) of a run (ranks 1 and 2). */
export const trainerStepMs = (es: Exit[]): number[] => es.slice(1).flatMap((e) => okResult(e).stepMs);
