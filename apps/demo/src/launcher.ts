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
  if (c.device === 'gpu') tensor([0]).to('gpu'); // fails clearly, before any process starts, when there is no gpu backend
  const master = c.master ?? `tcp://127.0.0.1:${await freePort('127.0.0.1')}`;
  const entry = fileURLToPath(new URL('./main.ts', import.meta.url));
  const view = new ProgressView(c.epochs);
  const epochs = new Map<string, WorkerReport[]>();
  const results: Extract<WorkerReport, { type: 'result' }>[] = [];
  const stats: Extract<WorkerReport, { type: 'stats' }>[] = [];
  const children: ChildProcess[] = [];
  const t0 = performance.now();
  console.log(`wiregrad demo: ${c.example === 'ps' ? 'parameter server' : 'model parallel pipeline'}, ${c.workers} processes, rendezvous at ${master}`);

  let failure: string | null = null;
  let interrupted = false;
  /** trainers that died; the run still succeeds if a trainer finished */
  const lost: number[] = [];
  const exits = Array.from({ length: c.workers }, (_, rank) => {
    const child = fork(entry, workerArgv(c, rank, master), { execArgv: ['--conditions=source', '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(child);
    child.on('message', (m: WorkerReport) => {
      if (m.type === 'progress') view.onProgress(m);
      else if (m.type === 'epoch') {
        view.onEpoch(m);
        epochs.set(m.label, [...(epochs.get(m.label) ?? []), m]);
      } else if (m.type === 'result') results.push(m);
      else stats.push(m);
    });
    return new Promise<void>((done) =>
      child.on('exit', (code, signal) => {
        if ((code !== 0 || signal) && !failure) {
          const how = `worker ${rank} (pid ${child.pid}) exited with ${signal ?? `code ${code}`}`;
          if (c.example === 'ps' && rank > 0 && !interrupted) {
            // Note [Asynchronous parameter server]: the others train on without it
            console.log(`wiregrad demo: ${how}; the parameter server trains on with the other trainers`);
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
  console.log(`workers: pids ${children.map((ch) => ch.pid).join(',')}`);
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
  if (failure) {
    console.error(`wiregrad demo: ${failure}`);
    return 1;
  }

  for (const r of results.sort((a, b) => a.rank - b.rank)) for (const l of r.lines) console.log(l);
  const loss: Series[] = [];
  const acc: Series[] = [];
  [...epochs.entries()].forEach(([label, es], i) => {
    const e = es as Extract<WorkerReport, { type: 'epoch' }>[];
    loss.push({ name: `${label} loss`, values: e.map((x) => x.loss), color: COLORS[i % COLORS.length]! });
    if (e[0]?.reference !== undefined) loss.push({ name: 'one process', values: e.map((x) => x.reference!), color: '#333333' });
    acc.push({ name: `${label} train`, values: e.map((x) => x.acc), color: COLORS[i % COLORS.length]! });
    if (e[0]?.testAcc !== null) acc.push({ name: `${label} held-out`, values: e.map((x) => x.testAcc ?? 0), color: COLORS[(i + 3) % COLORS.length]! });
  });
  const outDir = resolve(c.out);
  mkdirSync(outDir, { recursive: true });
  const plotPath = resolve(outDir, `${c.example}-training.svg`);
  writeFileSync(plotPath, plotSvg(`wiregrad ${c.example} demo (${c.workers} processes)`, loss, acc));
  console.log(`plot: ${plotPath}`);
  const seconds = (performance.now() - t0) / 1000;
  console.table(
    stats.sort((a, b) => a.rank - b.rank).map((s) => ({
      worker: s.label,
      'time (s)': s.seconds.toFixed(2),
      'steps/s': (s.steps / s.seconds).toFixed(1),
      'bytes sent per step': Math.round(s.bytesSent / s.steps),
      'bytes received per step': Math.round(s.bytesReceived / s.steps),
    })),
  );
  console.log(`total wall time ${seconds.toFixed(1)} s`);
  return 0;
}
