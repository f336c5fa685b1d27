import { Bench } from 'tinybench';
import { StealMeter } from './machine.js';

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
 * Note [Timed blocks]
 * Every contestant is timed in blocks of at least BLOCK consecutive calls, never call by call
 * in turns with another: alternating calls had each one start on caches, branch predictors and
 * (for a peer's thread pool, OpenBLAS's spinning workers) cores the other had just used, which
 * on a shared 2-core VM made a PyTorch MLP step read 12-55 ms against 1.3-1.9 ms run on its
 * own. The blocks of the contestants alternate for `rounds` rounds, so a machine whose speed
 * drifts (shared cloud cores) slows each alike; a contestant's figure is the median of all its
 * timed calls. While one contestant's block runs the others are idle: a peer in a child process
 * waits on its pipe, and wiregrad's pool has no work. The steal of each contestant's blocks is
 * read from /proc/stat before and after each block (machine.ts).
 */
export const BLOCK = 20;

/** Runs `calls` calls in a row; resolves to the milliseconds of each (a peer may time itself). */
export type Block = (calls: number) => number[] | Promise<number[]>;

/** A block of calls of `fn`, each timed here. */
export function timedBlock(fn: () => unknown): Block {
  return (calls) => {
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      const start = performance.now();
      fn();
      times.push(performance.now() - start);
    }
    return times;
  };
}

/** An asynchronous call timed here (awaited), or a promise of the milliseconds the callee measured. */
export function asyncBlock(fn: () => unknown): Block {
  return async (calls) => {
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      const start = performance.now();
      const result = fn();
      times.push(result instanceof Promise ? Number(await result) : performance.now() - start);
    }
    return times;
  };
}

const median = (v: number[]) => v.sort((a, b) => a - b)[v.length >> 1]!;

/**
 * Medians of contestants timed in alternating blocks (Note [Timed blocks]): `calls` timed
 * calls each (at least BLOCK a block), after `warmup` untimed ones at the start of each block;
 * `steal` (when given) gets each contestant's steal meter.
 */
export async function blockMedians<K extends string>(
  blocks: Record<K, Block>,
  calls: number,
  warmup = 2,
  steal?: Partial<Record<K, StealMeter>>,
): Promise<Record<K, number>> {
  const perBlock = Math.max(BLOCK, Math.ceil(calls / 2));
  const rounds = Math.max(2, Math.ceil(calls / perBlock));
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(blocks).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, block] of Object.entries<Block>(blocks)) {
      const meter = steal?.[name as K] ?? new StealMeter();
      const t = await meter.during(() => block(warmup + perBlock));
      times[name]!.push(...t.slice(warmup));
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])) as Record<K, number>;
}

/** `call` as interleavedMediansAsync times an asynchronous case: a promise of its milliseconds. */
export const timed = (call: () => Promise<unknown>) => async (): Promise<number> => {
  const t0 = performance.now();
  await call();
  return performance.now() - t0;
};

/** blockMedians for functions timed here, synchronously (Note [Timed blocks]). */
export function interleavedMedians(
  fns: Record<string, () => unknown>,
  rounds: number,
  warmup = 2,
): Record<string, number> {
  const perBlock = Math.max(BLOCK, Math.ceil(rounds / 2));
  const blockRounds = Math.max(2, Math.ceil(rounds / perBlock));
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (let r = 0; r < blockRounds; r++) {
    for (const [name, fn] of Object.entries(fns)) {
      times[name]!.push(...(timedBlock(fn)(warmup + perBlock) as number[]).slice(warmup));
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

/** blockMedians for asynchronous calls or peers that time themselves (asyncBlock). */
export function interleavedMediansAsync<K extends string>(
  fns: Record<K, () => unknown>,
  rounds: number,
  warmup = 2,
): Promise<Record<K, number>> {
  const blocks = Object.fromEntries(Object.entries<() => unknown>(fns).map(([k, fn]) => [k, asyncBlock(fn)]));
  return blockMedians(blocks as Record<K, Block>, rounds, warmup);
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
