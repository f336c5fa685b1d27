import type { WorkerReport } from '../protocol.js';
import { ProgressView } from '../report/progress.js';

export type EpochReport = Extract<WorkerReport, { type: 'epoch' }>;
export type ResultReport = Extract<WorkerReport, { type: 'result' }>;
export type StatsReport = Extract<WorkerReport, { type: 'stats' }>;

/** What every worker of a run reported, by kind; epochs by worker label, in arrival order. */
export class Collector {
  readonly epochs = new Map<string, EpochReport[]>();
  readonly results: ResultReport[] = [];
  readonly stats: StatsReport[] = [];
  private readonly view: ProgressView | null;

  /** quiet: no progress bars or per-epoch lines (the --bench runs) */
  constructor(epochs: number, quiet: boolean) {
    this.view = quiet ? null : new ProgressView(epochs);
  }

  onMessage(m: WorkerReport): void {
    if (m.type === 'progress') this.view?.onProgress(m);
    else if (m.type === 'epoch') {
      this.view?.onEpoch(m);
      let list = this.epochs.get(m.label);
      if (!list) this.epochs.set(m.label, (list = []));
      list.push(m);
    } else if (m.type === 'result') this.results.push(m);
    else this.stats.push(m);
  }

  stop(): void {
    this.view?.stop();
  }
}
