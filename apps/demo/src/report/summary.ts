import { resolve } from 'node:path';
import type { DemoConfig } from '../cli.js';
import type { EpochReport } from '../launcher/collector.js';
import type { Run } from '../launcher/runWorkers.js';
import { type Series, writePlot } from './plot.js';

/**
 * The plot's curves: per worker label its loss, training accuracy and (when it measures one)
 * held-out accuracy; the pipeline's one-process reference loss as a source of its own. Sources in
 * label order (trainer 2 before trainer 10), not in the order their first epoch arrived.
 */
export function curves(epochs: Map<string, EpochReport[]>): { loss: Series[]; acc: Series[] } {
  const loss: Series[] = [];
  const acc: Series[] = [];
  const bySource = [...epochs].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
  for (const [source, es] of bySource) {
    loss.push({ source, measure: 'loss', values: es.map((e) => e.loss) });
    if (es[0]?.reference !== undefined)
      loss.push({ source: 'one process', measure: 'reference loss', values: es.map((e) => e.reference!) });
    if (es[0]?.heldOutLoss !== undefined)
      loss.push({ source, measure: 'held-out loss', values: es.map((e) => e.heldOutLoss!) });
    if (es.every((e) => Number.isNaN(e.acc))) continue; // names: a loss, no accuracy
    acc.push({ source, measure: 'train', values: es.map((e) => e.acc) });
    if (es[0]?.testAcc !== null) acc.push({ source, measure: 'held-out', values: es.map((e) => e.testAcc ?? 0) });
  }
  return { loss, acc };
}

/** Held-out accuracies, the plot and the table of a finished run. */
export async function summarize(c: DemoConfig, { results, stats, epochs, seconds }: Run): Promise<void> {
  for (const r of results.sort((a, b) => a.rank - b.rank)) for (const l of r.lines) console.log(l);
  const { loss, acc } = curves(epochs);
  const plotPath = await writePlot(
    resolve(c.out, `${c.example}-training.svg`),
    `wiregrad ${c.example} demo (${c.workers} processes)`,
    loss,
    acc,
  );
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
