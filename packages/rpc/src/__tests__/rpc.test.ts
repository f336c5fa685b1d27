import { describe, expect, it } from 'vitest';
import { runWorkers } from './harness.js';

describe('rpc over real ZeroMQ sockets (3 worker threads)', () => {
  it('calls, errors, timeouts, nested calls and shutdown behave like PyTorch', async () => {
    const results = (await runWorkers({ scenario: 'basics', worldSize: 3 })) as Record<string, unknown>[];
    const r0 = results[0]!;
    expect(r0.infos).toEqual([['worker0', 0], ['worker1', 1], ['worker2', 2]]);
    expect(r0.self).toBe('WorkerInfo(id=0, name=worker0)');
    expect(r0.add).toEqual([[2, 2], [2, 2]]);
    expect(r0.selfAdd).toEqual([3]);
    expect(r0.intCallee).toBe('worker1');
    expect(r0.async).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(r0.then).toBe(20);
    expect(r0.echo).toEqual({
      t: { shape: [3, 2], dtype: 'float64', values: [[1, 4], [2, 5], [3, 6]], contiguous: false },
      n: [`${1n << 60n}n`, [['k', [7]]], null, 'str', true],
    });
    expect(r0.remoteError).toEqual({ name: 'ValueError', message: 'On WorkerInfo(id=1, name=worker1):\nExpected error', code: 'REMOTE' });
    expect((r0.unknownFn as { message: string }).message).toContain("function 'doesNotExist' is not registered on WorkerInfo(id=1, name=worker1)");
    expect(r0.unknownWorker).toMatchObject({ code: 'UNKNOWN_WORKER', message: 'Unknown destination worker nobody' });
    expect(r0.badRank).toMatchObject({ code: 'UNKNOWN_WORKER' });
    expect(r0.timeout).toEqual({ name: 'RpcError', code: 'TIMEOUT', message: 'RPC ran for more than set timeout (100 ms) and will now be marked with an error' });
    expect(r0.nested).toEqual([6]);
    expect(r0.unregistered).toMatchObject({ code: 'UNKNOWN_FUNCTION' });
    expect(r0.afterShutdown).toMatchObject({ code: 'NOT_INITIALIZED', message: 'RPC has not been initialized. Call initRpc first.' });
    for (const r of results) expect(r.add).toEqual([[2, 2], [2, 2]]);
  }, 60000);
});
