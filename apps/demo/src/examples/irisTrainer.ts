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
 * A ps trainer's epochs over its share of Iris, however its steps are taken (Note [Trainers
 * compute, the server updates], Note [Parameter server over dist-autograd]): `step` trains on
 * one batch; progress and each epoch's held-out accuracy go to the launcher.
 */
export async function trainEpochs(
  c: DemoConfig,
  rank: number,
  share: Split,
  step: (b: Split) => Promise<StepResult>,
  heldOut: () => Promise<number> | number,
): Promise<ReturnType<StepClock['totals']>> {
  const label = `trainer ${rank}`;
  const clock = new StepClock(c.epochs);
  for (let epoch = 1; epoch <= c.epochs; epoch++) {
    clock.epoch(epoch);
    const bs = batches(share, c.batchSize);
    let lossSum = 0;
    let accSum = 0;
    for (const [i, b] of bs.entries()) {
      const r = await step(b);
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
    report({ type: 'epoch', rank, label, epoch, loss, acc, testAcc: await heldOut() });
  }
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
