import { Bench } from 'tinybench';

export interface Row {
  case: string;
  ours: string;
  peer: string;
  oursMs: number;
  peerMs: number;
  /** what "good" means for this row, e.g. 'peer/ours >= 3' */
  target: string;
  /** peer time / our time (> 1: we are faster) */
  speedup: number;
  met: boolean;
}

/** Median time in ms of `fn`, measured by tinybench. */
export async function medianMs(
  name: string,
  fn: () => unknown,
  opts: { time?: number; iterations?: number } = {},
): Promise<number> {
  const bench = new Bench({ time: opts.time ?? 500, iterations: opts.iterations ?? 5, warmupIterations: 2 });
  bench.add(name, fn);
  await bench.run();
  const task = bench.tasks[0]!;
  const r = task.result as { latency?: { p50?: number }; p50?: number; error?: unknown } | undefined;
  if (!r) throw new Error(`benchmark ${name} produced no result`);
  if (r.error) throw r.error;
  const p50 = r.latency?.p50 ?? r.p50;
  if (p50 === undefined) throw new Error(`benchmark ${name} has no median`);
  return p50;
}

/**
 * Medians of several functions timed in turns (one call of each per round, after `warmup`
 * rounds), so a machine whose speed drifts during the run (shared cloud cores) slows every
 * contestant alike instead of whichever happened to run during the slow phase.
 */
export function interleavedMedians(
  fns: Record<string, () => unknown>,
  rounds: number,
  warmup = 2,
): Record<string, number> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (let r = 0; r < warmup + rounds; r++) {
    for (const [name, fn] of Object.entries(fns)) {
      const start = performance.now();
      fn();
      if (r >= warmup) times[name]!.push(performance.now() - start);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, v.sort((a, b) => a - b)[v.length >> 1]!]));
}

/**
 * interleavedMedians with peers that time themselves: a function returning a Promise of a
 * number (a child process answering how long its call took) counts that number, so the
 * pipe's round trip is not charged to it; the others are timed here.
 */
export async function interleavedMediansAsync<K extends string>(
  fns: Record<K, () => unknown>,
  rounds: number,
  warmup = 2,
): Promise<Record<K, number>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (let r = 0; r < warmup + rounds; r++) {
    for (const [name, fn] of Object.entries<() => unknown>(fns)) {
      const start = performance.now();
      const result = fn();
      const ms = result instanceof Promise ? Number(await result) : performance.now() - start;
      if (r >= warmup) times[name]!.push(ms);
    }
  }
  return Object.fromEntries(
    Object.entries(times).map(([k, v]) => [k, v.sort((a, b) => a - b)[v.length >> 1]!]),
  ) as Record<K, number>;
}

/** Compares ours with a peer; `minSpeedup` is the speedup (peer/ours) the issue asks for (0: no target, reported only). */
export function compare(caseName: string, ours: [string, number], peer: [string, number], minSpeedup: number): Row {
  const speedup = peer[1] / ours[1];
  return {
    case: caseName,
    ours: ours[0],
    peer: peer[0],
    oursMs: ours[1],
    peerMs: peer[1],
    target:
      minSpeedup === 0
        ? 'reported'
        : minSpeedup >= 1
          ? `>= ${minSpeedup}x faster`
          : `<= ${(1 / minSpeedup).toFixed(2)}x slower`,
    speedup,
    met: speedup >= minSpeedup,
  };
}

export function printRows(title: string, rows: readonly Row[]): void {
  console.log(`\n## ${title}`);
  console.table(
    rows.map((r) => ({
      case: r.case,
      ours: `${r.ours} ${r.oursMs.toFixed(3)} ms`,
      peer: `${r.peer} ${r.peerMs.toFixed(3)} ms`,
      'peer/ours': r.speedup.toFixed(2),
      target: r.target,
      met: r.met ? 'yes' : 'NO',
    })),
  );
}
