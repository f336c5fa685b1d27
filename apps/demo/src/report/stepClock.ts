/** The second half of a run (Note [Steady-state steps/s]): its steps, wall seconds and the process's cpu seconds. */
export interface SteadyTotals {
  steps: number;
  seconds: number;
  cpuSeconds: number;
}

/**
 * Note [Steady-state steps/s]
 * A trainer's first steps run while V8 compiles the rpc, codec and engine paths, and a run of
 * a few thousand steps spends a good part of its time there; k trainers each take 1/k of the
 * steps, so warm-up weighs k times as much in their figure. So each trainer also reports the
 * steps and seconds of the second half of its epochs (`steady`), and `--bench` adds those up:
 * steps/s of training itself, the same measure for 1, 2 and 4 trainers. The whole-run figure
 * stays in every run's summary. Even a second half is early in a short run, so `--bench --long`
 * trains 1500 epochs (figures: docs/measurements.md). The second half also carries the cpu time
 * the trainer's process spent in it (every thread: JavaScript, ZeroMQ's I/O thread, V8's
 * helpers), which `--bench` divides by its steps.
 */
export class StepClock {
  private readonly t0 = performance.now();
  private steps = 0;
  private half: { at: number; steps: number; cpu: NodeJS.CpuUsage } | null = null;

  constructor(private readonly epochs: number) {}

  /** At the start of epoch `e` (1-based): the second half starts at epoch floor(epochs / 2) + 1. */
  epoch(e: number): void {
    if (this.epochs > 1 && e === Math.floor(this.epochs / 2) + 1)
      this.half = { at: performance.now(), steps: this.steps, cpu: process.cpuUsage() };
  }

  step(): void {
    this.steps++;
  }

  stepsPerSec(): number {
    return this.steps / ((performance.now() - this.t0) / 1000);
  }

  /** Steps and seconds of the whole run, and of its second half (with its cpu seconds) when there was one. */
  totals(): { steps: number; seconds: number; steady?: SteadyTotals } {
    const now = performance.now();
    const whole = { steps: this.steps, seconds: (now - this.t0) / 1000 };
    if (!this.half) return whole;
    const cpu = process.cpuUsage(this.half.cpu);
    return {
      ...whole,
      steady: {
        steps: this.steps - this.half.steps,
        seconds: (now - this.half.at) / 1000,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
      },
    };
  }
}
