import { afterEach, describe, expect, it } from 'vitest';
import { runWorkers } from '../../../../rpc/src/__tests__/harness.js';
import { loopbackRun, okResult, TRAINING, WorkerProcesses } from './processes.js';
import type { TrainingResult } from './psTraining.js';

// A file of its own: zeromq sockets made on a thread after worker_threads that ran RPC workers
// have exited can stop receiving when that thread had used zeromq before (seen with
// vitest's fork workers), so nothing else here touches zeromq on the main thread.
describe('the parameter-server training in one process (worker threads) and in three', () => {
  const procs = new WorkerProcesses();
  afterEach(() => procs.killAll());

  it('ends with the same final parameters, bit for bit', async () => {
    const es = await loopbackRun(procs);
    const params = okResult(es[0]!).params;
    const threads = (await runWorkers({ scenario: new URL('./psTraining.ts', import.meta.url), worldSize: 3, extra: TRAINING, timeoutMs: 60_000 })) as TrainingResult[];
    expect(threads.map((t) => t.ok)).toEqual([true, true, true]);
    expect((threads[0] as Extract<TrainingResult, { ok: true }>).params).toEqual(params);
    expect(threads.slice(1).map((t) => (t as Extract<TrainingResult, { ok: true }>).losses)).toEqual(es.slice(1).map((e) => okResult(e).losses));
  }, 120_000);
});
