import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tensor } from '@wiregrad/autograd';
import { type DemoConfig, workerArgv } from './cli.js';
import type { WorkerReport } from './protocol.js';
import { plotSvg, type Series } from './report/plot.js';
import { ProgressView } from './report/progress.js';

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];

function freePort(host: string): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.on('error', rej);
    srv.listen(0, host, () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

/**
 * Starts every worker as its own Node process (ZeroMQ over TCP), shows their progress, and
 * stops them all on Ctrl-C or when one fails: no orphan processes, a clear message.
 */
export async function launch(c: DemoConfig): Promise<number> {
  if (c.bench) return bench(c);
  const run = await runWorkers(c, false);
  if (run.failure) {
    console.error(`wiregrad demo: ${run.failure}`);
    return 1;
  }
  report(c, run);
  return 0;
}

interface Run {
  failure: string | null;
  results: Extract<WorkerReport, { type: 'result' }>[];
  stats: Extract<WorkerReport, { type: 'stats' }>[];
  epochs: Map<string, WorkerReport[]>;
  seconds: number;
}

/** Every trainer's steps per second, added up. */
const aggregateStepsPerSec = (r: Run) => r.stats.reduce((sum, s) => sum + s.steps / s.seconds, 0);

/**
 * `pnpm demo --bench`: the parameter-server example with 1, 2 and 4 trainer processes on the
 * same model, each run on its own, and the aggregate training steps/s of each (Note
 * [Asynchronous parameter server]: trainers do not take turns, so more trainers step more).
 */
async function bench(c: DemoConfig): Promise<number> {
  const rows: Record<string, string>[] = [];
  let one = 0;
  for (const trainers of [1, 2, 4]) {
    const run = await runWorkers({ ...c, workers: trainers + 1, example: 'ps' }, true);
    if (run.failure) {
      console.error(`wiregrad demo --bench: ${trainers} trainers: ${run.failure}`);
      return 1;
    }
    const sps = aggregateStepsPerSec(run);
    if (trainers === 1) one = sps;
    const acc = Math.min(...run.results.map((r) => r.testAcc ?? 0));
    rows.push({
      trainers: String(trainers),
      'aggregate steps/s': sps.toFixed(1),
      'vs 1 trainer': `${(sps / one).toFixed(2)}x`,
      'wall time (s)': run.seconds.toFixed(1),
      'lowest held-out accuracy': `${(100 * acc).toFixed(1)}%`,
    });
    console.log(`${trainers} trainer${trainers > 1 ? 's' : ''}: ${sps.toFixed(1)} steps/s in all`);
  }
  console.table(rows);
  return 0;
}

/** Starts every worker as its own process and collects what they report (quiet: no progress, no plot). */
async function runWorkers(c: DemoConfig, quiet: boolean): Promise<Run> {
  if (c.device === 'gpu') tensor([0]).to('gpu'); // fails clearly, before any process starts, when there is no gpu backend
  const master = c.master ?? `tcp://127.0.0.1:${await freePort('127.0.0.1')}`;
  const entry = fileURLToPath(new URL('./main.ts', import.meta.url));
  const view = new ProgressView(quiet ? 0 : c.epochs);
  const epochs = new Map<string, WorkerReport[]>();
  const results: Extract<WorkerReport, { type: 'result' }>[] = [];
  const stats: Extract<WorkerReport, { type: 'stats' }>[] = [];
  const children: ChildProcess[] = [];
  const t0 = performance.now();
  const log = quiet ? () => {} : console.log;
  const what = {
    ps: 'parameter server',
    pipeline: 'model parallel pipeline',
    mnist: 'MNIST convnet on a parameter server',
  }[c.example];
  log(`wiregrad demo: ${what}, ${c.workers} processes, rendezvous at ${master}`);

  let failure: string | null = null;
  let interrupted = false;
  /** trainers that died; the run still succeeds if a trainer finished */
  const lost: number[] = [];
  const exits = Array.from({ length: c.workers }, (_, rank) => {
    const child = fork(entry, workerArgv(c, rank, master), {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(child);
    child.on('message', (m: WorkerReport) => {
      if (m.type === 'progress') {
        if (!quiet) view.onProgress(m);
      } else if (m.type === 'epoch') {
        if (!quiet) view.onEpoch(m);
        epochs.set(m.label, [...(epochs.get(m.label) ?? []), m]);
      } else if (m.type === 'result') results.push(m);
      else stats.push(m);
    });
    return new Promise<void>((done) =>
      child.on('exit', (code, signal) => {
        if ((code !== 0 || signal) && !failure) {
          const how = `worker ${rank} (pid ${child.pid}) exited with ${signal ?? `code ${code}`}`;
          if (c.example === 'ps' && rank > 0 && !interrupted) {
            // See Note [Asynchronous parameter server]: the others train on without it
            log(`wiregrad demo: ${how}; the parameter server trains on with the other trainers`);
            lost.push(rank);
          } else {
            failure = `${how}; stopping the others`;
            for (const other of children) if (other !== child && other.exitCode === null) other.kill('SIGTERM');
          }
        }
        done();
      }),
    );
  });
  log(`workers: pids ${children.map((ch) => ch.pid).join(',')}`);
  const onSignal = () => {
    interrupted = true;
    failure ??= 'interrupted; stopping every worker';
    for (const ch of children) if (ch.exitCode === null) ch.kill('SIGTERM');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  await Promise.all(exits);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  view.stop();
  if (!failure && results.length === 0) failure = `every trainer died (${lost.join(', ')})`;
  return { failure, results, stats, epochs, seconds: (performance.now() - t0) / 1000 };
}

/** Held-out accuracies, the plot and the table of a finished run. */
function report(c: DemoConfig, { results, stats, epochs, seconds }: Run): void {
  for (const r of results.sort((a, b) => a.rank - b.rank)) for (const l of r.lines) console.log(l);
  const loss: Series[] = [];
  const acc: Series[] = [];
  [...epochs.entries()].forEach(([label, es], i) => {
    const e = es as Extract<WorkerReport, { type: 'epoch' }>[];
    loss.push({ name: `${label} loss`, values: e.map((x) => x.loss), color: COLORS[i % COLORS.length]! });
    if (e[0]?.reference !== undefined)
      loss.push({ name: 'one process', values: e.map((x) => x.reference!), color: '#333333' });
    acc.push({ name: `${label} train`, values: e.map((x) => x.acc), color: COLORS[i % COLORS.length]! });
    if (e[0]?.testAcc !== null)
      acc.push({
        name: `${label} held-out`,
        values: e.map((x) => x.testAcc ?? 0),
        color: COLORS[(i + 3) % COLORS.length]!,
      });
  });
  const outDir = resolve(c.out);
  mkdirSync(outDir, { recursive: true });
  const plotPath = resolve(outDir, `${c.example}-training.svg`);
  writeFileSync(plotPath, plotSvg(`wiregrad ${c.example} demo (${c.workers} processes)`, loss, acc));
  console.log(`plot: ${plotPath}`);
  console.table(
    stats
      .sort((a, b) => a.rank - b.rank)
      .map((s) => ({
        worker: s.label,
        'time (s)': s.seconds.toFixed(2),
        'steps/s': (s.steps / s.seconds).toFixed(1),
        'bytes sent per step': Math.round(s.bytesSent / s.steps),
        'bytes received per step': Math.round(s.bytesReceived / s.steps),
      })),
  );
  console.log(`total wall time ${seconds.toFixed(1)} s`);
}
