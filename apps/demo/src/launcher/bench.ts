import { BENCH_EPOCHS, BENCH_LONG_EPOCHS, type DemoConfig } from '../cli.js';
import { aggregateStepsPerSec, runWorkers, trainerCpuPerStep } from './runWorkers.js';

const TRAINERS = [1, 2, 4] as const;

/**
 * Note [Interleaved bench rounds]
 * One run of a trainer count says little on a shared machine: a lone trainer's step waits on
 * wake-ups across cores, and which core each thread wakes on, and what the host takes (steal),
 * change from run to run, so one run each of 1, 2 and 4 trainers can give any ratio (figures:
 * docs/measurements.md). So `--bench` runs the three trainer counts BENCH_ROUNDS times, taking
 * turns (1, 2, 4, 1, 2, 4, ...), so a slow stretch of the machine falls on all three, and
 * reports each count's median, each round's ratios and their range.
 */
const BENCH_ROUNDS = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const range = (xs: number[], digits: number) => `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;

/**
 * `pnpm demo --bench`: the parameter-server example with 1, 2 and 4 trainer processes on the
 * same model, each run on its own, and the aggregate training steps/s of each (Note
 * [Trainers compute, the server updates]: trainers do not take turns, so more trainers step more),
 * over the second half of each trainer's epochs (Note [Steady-state steps/s]), which is why
 * --bench --long trains 1500 epochs (the default 40 last ~4 s, most of it process start); in rounds
 * (Note [Interleaved bench rounds]). Plain --bench trains 250 epochs a run, a quick look in
 * 2-3 minutes whose ratios lean towards 1 trainer (warm-up weighs more); it says what it is
 * running as it goes.
 */
export async function bench(c: DemoConfig): Promise<number> {
  const steps = new Map<number, number[]>(TRAINERS.map((n) => [n, []]));
  const cpu = new Map<number, number[]>(TRAINERS.map((n) => [n, []]));
  let lowestAcc = 1;
  const started = Date.now();
  const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
  console.log(
    `bench: ${BENCH_ROUNDS} rounds of 1, 2 and 4 trainers taking turns, ${c.epochs} epochs a run` +
      (c.long || c.epochs !== BENCH_EPOCHS ? '' : ` (a quick look; --long trains ${BENCH_LONG_EPOCHS} epochs a run)`),
  );
  for (let round = 1; round <= BENCH_ROUNDS; round++) {
    const line: string[] = [];
    for (const trainers of TRAINERS) {
      console.log(
        `  round ${round} of ${BENCH_ROUNDS}: ${trainers} trainer${trainers > 1 ? 's' : ''}... (${elapsed()} so far)`,
      );
      const run = await runWorkers({ ...c, workers: trainers + 1, example: 'ps' }, true);
      if (run.failure) {
        console.error(`wiregrad demo --bench: ${trainers} trainers: ${run.failure}`);
        return 1;
      }
      const sps = aggregateStepsPerSec(run);
      steps.get(trainers)!.push(sps);
      cpu.get(trainers)!.push(trainerCpuPerStep(run));
      lowestAcc = Math.min(lowestAcc, ...run.results.map((r) => r.testAcc ?? 0));
      const one = steps.get(1)![round - 1]!;
      line.push(`${trainers}: ${sps.toFixed(0)}${trainers > 1 ? ` (${(sps / one).toFixed(2)}x)` : ''}`);
    }
    console.log(`round ${round} of ${BENCH_ROUNDS}, steps/s by trainers: ${line.join(', ')}`);
  }
  const oneMedian = median(steps.get(1)!);
  const rows = TRAINERS.map((n) => {
    const s = steps.get(n)!;
    const perRound = s.map((v, i) => v / steps.get(1)![i]!);
    return {
      trainers: String(n),
      'aggregate steps/s (median)': median(s).toFixed(1),
      'steps/s (range)': range(s, 0),
      'vs 1 trainer (medians)': `${(median(s) / oneMedian).toFixed(2)}x`,
      'vs 1 trainer (each round)': range(perRound, 2),
      'trainer cpu per step (us, median)': (median(cpu.get(n)!) * 1e6).toFixed(0),
    };
  });
  // the lines bench/ps.bench.ts reads: each trainer count's median
  for (const n of TRAINERS)
    console.log(`${n} trainer${n > 1 ? 's' : ''}: ${median(steps.get(n)!).toFixed(1)} steps/s in all`);
  console.table(rows);
  console.log(`lowest held-out accuracy of any trainer in any run: ${(100 * lowestAcc).toFixed(1)}%`);
  return 0;
}
