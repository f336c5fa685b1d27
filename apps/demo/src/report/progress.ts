import cliProgress from 'cli-progress';
import type { WorkerReport } from '../protocol.js';

type Progress = Extract<WorkerReport, { type: 'progress' }>;
type Epoch = Extract<WorkerReport, { type: 'epoch' }>;

/**
 * One progress bar per reporting worker (cli-progress) with loss, accuracy and steps/s; the
 * bar restarts every epoch. Without a terminal it prints one line per epoch instead.
 */
export class ProgressView {
  private readonly multi = process.stdout.isTTY
    ? new cliProgress.MultiBar(
        {
          format: '{label} |{bar}| epoch {epoch}/{epochs} step {value}/{total} loss {loss} acc {acc} {sps} steps/s',
          hideCursor: true,
          clearOnComplete: false,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  private readonly bars = new Map<number, cliProgress.SingleBar>();

  constructor(private readonly epochs: number) {}

  onProgress(p: Progress): void {
    if (!this.multi) return;
    const payload = {
      label: p.label.padEnd(10),
      epoch: p.epoch,
      epochs: this.epochs,
      loss: p.loss.toFixed(4),
      acc: Number.isNaN(p.acc) ? '-' : `${(100 * p.acc).toFixed(1)}%`,
      sps: p.stepsPerSec.toFixed(1),
    };
    let bar = this.bars.get(p.rank);
    if (!bar) this.bars.set(p.rank, (bar = this.multi.create(p.steps, 0, payload)));
    if (p.step === 1) bar.start(p.steps, 0, payload);
    bar.update(p.step, payload);
  }

  onEpoch(e: Epoch): void {
    if (e.line !== undefined) return void (this.multi ? this.multi.log(`${e.line}\n`) : console.log(e.line));
    if (this.multi) return;
    const test = e.testAcc === null ? '' : ` held-out acc ${(100 * e.testAcc).toFixed(1)}%`;
    const ref = e.reference === undefined ? '' : ` (one process: ${e.reference.toFixed(6)})`;
    console.log(
      `[${e.label}] epoch ${e.epoch}/${this.epochs} loss ${e.loss.toFixed(6)}${ref} acc ${(100 * e.acc).toFixed(1)}%${test}`,
    );
  }

  stop(): void {
    this.multi?.stop();
  }
}
