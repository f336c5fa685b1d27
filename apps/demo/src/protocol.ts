import type { SteadyTotals } from './report/stepClock.js';

/** What a worker process reports to the launcher over the IPC channel (or prints when run alone). */
export type WorkerReport =
  | {
      type: 'progress';
      rank: number;
      label: string;
      epoch: number;
      step: number;
      steps: number;
      loss: number;
      acc: number;
      stepsPerSec: number;
    }
  | {
      type: 'epoch';
      rank: number;
      label: string;
      epoch: number;
      loss: number;
      acc: number;
      testAcc: number | null;
      reference?: number;
      /** (names) the held-out loss, plotted beside the training loss */
      heldOutLoss?: number;
      /** printed instead of the default epoch line */
      line?: string;
    }
  | { type: 'result'; rank: number; label: string; lines: string[]; testAcc?: number; maxLossDiff?: number }
  | {
      type: 'stats';
      rank: number;
      label: string;
      steps: number;
      seconds: number;
      bytesSent: number;
      bytesReceived: number;
      /** the second half of the run's epochs (Note [Steady-state steps/s]) */
      steady?: SteadyTotals;
    };

/** A progress bar redraws at most this often: per-step IPC would cost a fast trainer a good share of its step. */
const PROGRESS_INTERVAL_MS = 100;
let lastProgress = -Infinity;

/** Sends a report to the launcher, or prints it when this worker runs on its own. */
export function report(r: WorkerReport): void {
  if (r.type === 'progress' && r.step < r.steps) {
    const now = performance.now();
    if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
    lastProgress = now;
  }
  if (process.send) {
    process.send(r);
    return;
  }
  if (r.type === 'epoch' && r.line !== undefined) console.log(r.line);
  else if (r.type === 'epoch') {
    const test = r.testAcc === null ? '' : ` test acc ${(100 * r.testAcc).toFixed(1)}%`;
    console.log(`[${r.label}] epoch ${r.epoch} loss ${r.loss.toFixed(4)} acc ${(100 * r.acc).toFixed(1)}%${test}`);
  } else if (r.type === 'result') {
    for (const l of r.lines) console.log(l);
  }
}

/** A worker's steps and seconds (StepClock.totals) with its rpc traffic, for the run's summary and --bench. */
export async function reportStats(
  rank: number,
  label: string,
  totals: Pick<Extract<WorkerReport, { type: 'stats' }>, 'steps' | 'seconds' | 'steady'>,
): Promise<void> {
  const { getRpcStats } = await import('@wiregrad/rpc');
  const s = getRpcStats();
  report({ type: 'stats', rank, label, ...totals, bytesSent: s.bytesSent, bytesReceived: s.bytesReceived });
}

/** A trainer that lost its parameter server (PEER_DISCONNECTED) exits with this, so the launcher can tell it from a trainer that failed. */
export const LOST_THE_SERVER = 3;
