import { tensor } from '@wiregrad/autograd';
import type { DemoConfig } from '../cli.js';
import { Collector, type ResultReport, type StatsReport, type EpochReport } from './collector.js';
import { freePort } from './freePort.js';
import { supervise } from './supervisor.js';

/** A finished run of every worker: why it failed (or null), and what they reported. */
export interface Run {
  failure: string | null;
  results: ResultReport[];
  stats: StatsReport[];
  epochs: Map<string, EpochReport[]>;
  seconds: number;
}

const WHAT = {
  ps: 'parameter server',
  pipeline: 'model parallel pipeline',
  mnist: 'MNIST convnet on a parameter server',
  names: 'character Transformer split over two workers',
  // (never started here: examples/ddp.ts runs its ranks through wiregrad-run)
  ddp: 'MNIST convnet with DistributedDataParallel',
} as const;

/** Starts every worker as its own process and collects what they report (quiet: no progress, no plot). */
export async function runWorkers(c: DemoConfig, quiet: boolean): Promise<Run> {
  if (c.device === 'gpu') tensor([0]).to('gpu'); // fails clearly, before any process starts, when there is no gpu backend
  const master = c.master ?? `tcp://127.0.0.1:${await freePort('127.0.0.1')}`;
  const log = quiet ? () => {} : (line: string) => console.log(line);
  log(`wiregrad demo: ${WHAT[c.example]}, ${c.workers} processes, rendezvous at ${master}`);
  const t0 = performance.now();
  const collected = new Collector(c.epochs, quiet);
  const { failure, lost } = await supervise(c, master, (m) => collected.onMessage(m), log);
  collected.stop();
  const { results, stats, epochs } = collected;
  return {
    failure: failure ?? (results.length === 0 ? `every trainer died (${lost.join(', ')})` : null),
    results,
    stats,
    epochs,
    seconds: (performance.now() - t0) / 1000,
  };
}

/** Steps/s of all trainers together, over the second half of each one's run where it has one (Note [Steady-state steps/s]). */
export const aggregateStepsPerSec = (r: Run) =>
  r.stats.reduce((sum, s) => sum + (s.steady ?? s).steps / (s.steady ?? s).seconds, 0);

/** Cpu seconds of the trainers' processes per step, over the second halves of their runs (NaN when none had one). */
export function trainerCpuPerStep(r: Run): number {
  const halves = r.stats.flatMap((s) => (s.steady ? [s.steady] : []));
  return halves.reduce((sum, h) => sum + h.cpuSeconds, 0) / halves.reduce((sum, h) => sum + h.steps, 0);
}
