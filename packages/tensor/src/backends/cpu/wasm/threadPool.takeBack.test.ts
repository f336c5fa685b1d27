import { afterEach, describe, expect, it } from 'vitest';
import { platform } from '#platform';
import type { PlatformThread } from '../../../platform/types.js';
import { ThreadPool, type WasmTask } from './threadPool.js';
import { wasmRuntime } from './wasmRuntime.js';

const EXP = 4; // assembly/elementwise.ts
const N = 1 << 14;
const PARTS = 4;

/** exp of N floats cut into PARTS tasks, run by `run`; returns the result's bytes. */
function expOnPool(run: (tasks: readonly WasmTask[]) => void): Uint8Array {
  const runtime = wasmRuntime()!;
  runtime.reset();
  const x = runtime.stage(Float32Array.from({ length: N }, (_, i) => Math.cos(i) * 10));
  const out = runtime.alloc(N * 4);
  const part = N / PARTS;
  run(
    Array.from({ length: PARTS }, (_, t): WasmTask => ({
      kernel: 'unaryF32',
      args: [EXP, x + 4 * t * part, out + 4 * t * part, part],
    })),
  );
  const result = new Float32Array(N);
  runtime.read(out, result);
  return new Uint8Array(result.buffer);
}

describe('the calling thread takes back tasks no worker started (Note [Unstarted tasks are taken back])', () => {
  const start = platform.startThread;
  afterEach(() => {
    (platform as { startThread: typeof start }).startThread = start;
  });

  it('with workers that never get a core, run() returns with every task done here: the same bytes', async () => {
    const reference = expOnPool((tasks) => tasks.forEach((t) => wasmRuntime()!.call(t)));
    // a thread that never runs (a worker starved of a core, forever): joining it would hang
    const starved: PlatformThread = { unref() {}, ref() {}, onceExit: (listener) => listener(0) };
    (platform as { startThread: typeof start }).startThread = () => starved;
    const pool = new ThreadPool(wasmRuntime()!, PARTS);
    expect(pool.readyThreads()).toBe(PARTS);
    expect(expOnPool((tasks) => pool.run(tasks))).toEqual(reference);
    expect(expOnPool((tasks) => pool.run(tasks))).toEqual(reference);
    await pool.close();
  });

  // close() waits for the workers to start and stop, which takes seconds on a loaded machine
  it('with real workers, runs after runs give the same bytes whoever ran each task', { timeout: 60_000 }, async () => {
    const reference = expOnPool((tasks) => tasks.forEach((t) => wasmRuntime()!.call(t)));
    const pool = new ThreadPool(wasmRuntime()!, PARTS);
    try {
      for (let i = 0; i < 30; i++) expect(expOnPool((tasks) => pool.run(tasks))).toEqual(reference);
    } finally {
      await pool.close();
    }
  });
});
