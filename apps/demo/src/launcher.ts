import type { DemoConfig } from './cli.js';
import { bench } from './launcher/bench.js';
import { runWorkers } from './launcher/runWorkers.js';
import { summarize } from './report/summary.js';

/**
 * `pnpm demo [ps|pipeline|mnist --workers N]`: every worker as its own Node process (ZeroMQ over
 * TCP, launcher/supervisor.ts), their progress, then the summary (report/summary.ts); or the
 * --bench runs (launcher/bench.ts).
 */
export async function launch(c: DemoConfig): Promise<number> {
  if (c.bench) return bench(c);
  const run = await runWorkers(c, false);
  if (run.failure) {
    console.error(`wiregrad demo: ${run.failure}`);
    return 1;
  }
  await summarize(c, run);
  return 0;
}
