// The pool as it runs on a page (Note [Pool on the web]), on Node: the platform is mocked to
// say threads do not run while their starter blocks (a page's rule), or that there are none
// (a page that is not cross-origin isolated). packages/consumer-tests runs the real thing in
// Chromium (browserThreads.test.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { platform } from '#platform';
import type { TensorPlatform } from '../../../platform/types.js';
import { ThreadPool, type WasmTask } from './threadPool.js';
import { wasmRuntime } from './wasmRuntime.js';

vi.mock('#platform', async (original) => {
  const { platform: host } = await original<{ platform: TensorPlatform }>();
  return { platform: { ...host, threadsRunWhileBlocked: false } };
});

const EXP = 4; // assembly/elementwise.ts
const N = 1 << 14;
const PARTS = 4;

/** exp of N floats cut into PARTS tasks, run by `run`; returns the result's bytes. */
function expOnPool(pool: Pick<ThreadPool, 'run'>): Uint8Array {
  const runtime = wasmRuntime()!;
  runtime.reset();
  const x = runtime.stage(Float32Array.from({ length: N }, (_, i) => Math.sin(i) * 10));
  const out = runtime.alloc(N * 4);
  const part = N / PARTS;
  const tasks = Array.from({ length: PARTS }, (_, t): WasmTask => ({
    kernel: 'unaryF32',
    args: [EXP, x + 4 * t * part, out + 4 * t * part, part],
  }));
  pool.run(tasks);
  const result = new Float32Array(N);
  runtime.read(out, result);
  return new Uint8Array(result.buffer);
}

/** The tasks one after the other on this thread, without a pool. */
const oneByOne = { run: (tasks: readonly WasmTask[]): void => tasks.forEach((t) => wasmRuntime()!.call(t)) };

async function untilReady(pool: ThreadPool): Promise<void> {
  for (let waited = 0; pool.readyThreads() < pool.threads; waited += 10) {
    if (waited > 30_000) throw new Error(`pool workers not ready: ${pool.readyThreads()} of ${pool.threads}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("the thread pool under a page's rules (Note [Pool on the web])", () => {
  const start = platform.startThread;
  afterEach(() => {
    (platform as { startThread: typeof start }).startThread = start;
  });

  it('runs tasks on the calling thread until workers are ready, then on them: the same bytes', async () => {
    const reference = expOnPool(oneByOne);
    const pool = new ThreadPool(wasmRuntime()!, PARTS);
    try {
      // just started: the workers that are not ready yet leave their tasks to this thread
      expect(expOnPool(pool)).toEqual(reference);
      await untilReady(pool);
      expect(pool.readyThreads()).toBe(PARTS);
      expect(expOnPool(pool)).toEqual(reference);
    } finally {
      await pool.close();
    }
  });

  it('without threads (no cross-origin isolation) every task runs on the calling thread', async () => {
    const reference = expOnPool(oneByOne);
    (platform as { startThread: typeof start }).startThread = null;
    const pool = new ThreadPool(wasmRuntime()!, PARTS);
    expect(pool.readyThreads()).toBe(1);
    expect(expOnPool(pool)).toEqual(reference);
    expect(() =>
      pool.run(Array.from({ length: PARTS + 1 }, () => ({ kernel: 'unaryF32', args: [0, 65536, 65536, 4] }))),
    ).toThrow(/5 tasks for a pool of 4 threads/);
    await pool.close();
  });
});
