import { afterEach, describe, expect, it } from 'vitest';
import { runWorkers } from '../harness.js';
import { loopbackRun, okResult, TRAINING, WorkerProcesses } from './processes.js';
import type { TrainingResult } from './psTraining.js';

// A file of its own, so that no zeromq socket of the spec's own thread (training.test.ts's
// proxies' rendezvous relay) shares a process with worker threads that ran RPC workers: before
// cf2b375 (Note [Teardown never aborts]) such sockets stopped receiving once the threads had exited.
describe('the parameter-server training in one process (worker threads) and in three', () => {
  const procs = new WorkerProcesses();
  afterEach(() => procs.killAll());

  it('ends with the same final parameters, bit for bit', async () => {
    const es = await loopbackRun(procs);
    const params = okResult(es[0]!).params;
    const threads = (await runWorkers({
      scenario: new URL('./psTraining.ts', import.meta.url),
      worldSize: 3,
      extra: TRAINING,
      timeoutMs: 60_000,
    })) as TrainingResult[];
    expect(threads.map((t) => t.ok)).toEqual([true, true, true]);
    expect((threads[0] as Extract<TrainingResult, { ok: true }>).params).toEqual(params);
    expect(threads.slice(1).map((t) => (t as Extract<TrainingResult, { ok: true }>).losses)).toEqual(
      es.slice(1).map((e) => okResult(e).losses),
    );
  }, 120_000);
});
