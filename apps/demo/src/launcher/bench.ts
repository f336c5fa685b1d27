import type { DemoConfig } from '../cli.js';
import { aggregateStepsPerSec, runWorkers } from './runWorkers.js';

/**
 * `pnpm demo --bench`: the parameter-server example with 1, 2 and 4 trainer processes on the
 * same model, each run on its own, and the aggregate training steps/s of each (Note
 * [Trainers compute, the server updates]: trainers do not take turns, so more trainers step more),
 * over the second half of each trainer's epochs (Note [Steady-state steps/s]), which is why
 * --bench trains 1500 epochs (the default 40 last ~4 s, most of it process start).
 */
export async function bench(c: DemoConfig): Promise<number> {
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
