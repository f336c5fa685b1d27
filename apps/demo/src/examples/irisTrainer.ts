import type { DemoConfig } from '../cli.js';
import { type IrisData, type Split, batches } from '../data/iris.js';
import { report, reportStats } from '../protocol.js';
import { StepClock } from '../report/stepClock.js';

/** What one training step on a batch gives back: its loss and its accuracy on the batch. */
export interface StepResult {
  loss: number;
  acc: number;
}

/**
 * Note [Bookkeeping while the update is in flight]
 * A gradient trainer (Note [Trainers compute, the server updates]) sits idle for the whole
 * round trip of its update, and its other work sat on its critical path: the batch's loss and
 * accuracy (~20 us a step), and at each epoch's end the held-out accuracy (~40 us) and the
 * epoch report to the launcher (an IPC write that wakes the launcher process: ~190 us of the
 * trainer's wall time in a CPU profile). That work does not change what the next step
 * computes, so the trainer does it after its update has left and before it waits for the
 * answer: `trainEpochs` hands each step the previous epoch's report (`inFlight`), and with
 * `reportInFlight` the step runs it once its update is on the wire, while its parameters are
 * still those the epoch ended with, so the held-out accuracy is the same as before. With two
 * trainers an epoch ends every 6 steps, with one every 12 (each has half the data), so the
 * epoch-end work weighed twice as much per step with two. No gradient gets staler: the next
 * step still starts from the parameters the server answered. Measured (the bench's 1/2/4
 * trainers, 1500 epochs, 3 runs alternated with the previous code, load 8-11): 1431-1454
 * steps/s with one trainer against 1374-1416; with two and four the load's noise is larger
 * than any difference.
 */

/** The previous epoch's report, handed to a step (Note [Bookkeeping while the update is in flight]); a no-op when none is due. */
export type InFlight = () => Promise<void>;

/**
 * A ps trainer's epochs over its share of Iris, however its steps are taken (Note [Trainers
 * compute, the server updates], Note [Parameter server over dist-autograd]): `step` trains on
 * one batch; progress and each epoch's held-out accuracy go to the launcher. With
 * `reportInFlight`, a step runs `inFlight` (the previous epoch's report) while its update is
 * on the wire; without it, each epoch is reported as it ends.
 */
export async function trainEpochs(
  c: DemoConfig,
  rank: number,
  share: Split,
  step: (b: Split, inFlight: InFlight) => Promise<StepResult>,
  heldOut: () => Promise<number> | number,
  { reportInFlight = false } = {},
): Promise<ReturnType<StepClock['totals']>> {
  const label = `trainer ${rank}`;
  const clock = new StepClock(c.epochs);
  let epochReport: (() => Promise<void>) | null = null;
  const inFlight: InFlight = async () => {
    const due = epochReport;
    epochReport = null;
    await due?.();
  };
  for (let epoch = 1; epoch <= c.epochs; epoch++) {
    clock.epoch(epoch);
    const bs = batches(share, c.batchSize);
    let lossSum = 0;
    let accSum = 0;
    for (const [i, b] of bs.entries()) {
      const r = await step(b, inFlight);
      if (epochReport) await inFlight(); // a step that did not run it
      lossSum += r.loss;
      accSum += r.acc;
      clock.step();
      const [loss, acc] = [lossSum / (i + 1), accSum / (i + 1)];
      report({
        type: 'progress',
        rank,
        label,
        epoch,
        step: i + 1,
        steps: bs.length,
        loss,
        acc,
        stepsPerSec: clock.stepsPerSec(),
      });
    }
    const [loss, acc] = [lossSum / bs.length, accSum / bs.length];
    epochReport = async () => report({ type: 'epoch', rank, label, epoch, loss, acc, testAcc: await heldOut() });
    if (!reportInFlight) await inFlight();
  }
  await inFlight();
  return clock.totals();
}

/** A ps trainer's last words: its held-out accuracy, and its steps/s and bytes (the run's summary, --bench). */
export async function reportTrainerResult(
  rank: number,
  data: IrisData,
  testAcc: number,
  totals: ReturnType<StepClock['totals']>,
): Promise<void> {
  const label = `trainer ${rank}`;
  const line = `[${label}] held-out accuracy: ${(100 * testAcc).toFixed(1)}% on ${data.test.y.numel} Iris flowers`;
  report({ type: 'result', rank, label, testAcc, lines: [line] });
  await reportStats(rank, label, totals);
}
