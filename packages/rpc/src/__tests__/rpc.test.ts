import { beforeAll, describe, expect, it } from 'vitest';
import { runWorkers } from './harness.js';

const worker = (id: number) => `WorkerInfo(id=${id}, name=worker${id})`;
const remoteError = (name: string, on: number, message: string) => ({
  name,
  code: 'REMOTE',
  message: `On ${worker(on)}:\n${message}`,
});

describe('rpc between 3 worker threads over real ZeroMQ sockets (rpc_test.py)', () => {
  let all: Record<string, unknown>[];
  let r0: Record<string, unknown>;
  beforeAll(async () => {
    all = (await runWorkers({ scenario: 'basics', worldSize: 3, timeoutMs: 40000 })) as Record<string, unknown>[];
    r0 = all[0]!;
  }, 60000);

  it('worker infos: names and ids from the rendezvous; unknown names rejected (test_get_worker_infos)', () => {
    expect(r0.infos).toEqual([
      ['worker0', 0],
      ['worker1', 1],
      ['worker2', 2],
    ]);
    expect([r0.self, r0.byName]).toEqual([worker(0), worker(1)]);
    expect(r0.unknownInfo).toEqual({
      name: 'RpcError',
      code: 'UNKNOWN_WORKER',
      message: 'Unknown destination worker nobody',
    });
  });

  it('builtin tensor functions run on the callee, passed as functions or names (test_add, test_scalar_add, test_self_add, test_py_built_in)', () => {
    for (const r of all)
      expect(r.add).toEqual([
        [2, 2],
        [2, 2],
      ]);
    expect(r0.scalarAdd).toEqual([4, 5]);
    expect(r0.bigAdd).toEqual([true, 1 << 16, 4 << 16]);
    expect(r0.selfAdd).toEqual([[3], [4]]);
    expect(r0.builtinMax).toBe(9);
  });

  it('`to` is a name, a rank or a WorkerInfo; bad ranks and names are rejected (test_int_callee, test_send_to_rank)', () => {
    expect(r0.toForms).toEqual(['worker1', 'worker1', 'worker1']);
    const [tooBig, negative, fractional] = r0.badRanks as { code: string; message: string }[];
    expect(tooBig).toMatchObject({
      code: 'UNKNOWN_WORKER',
      message: 'Unknown destination worker rank 4 (world size 3)',
    });
    expect(negative).toMatchObject({ code: 'UNKNOWN_WORKER' });
    expect(fractional).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'worker rank must be an integer, got 0.5' });
    expect(r0.unknownWorker).toMatchObject({ code: 'UNKNOWN_WORKER', message: 'Unknown destination worker nobody' });
  });

  it('sequential and concurrent calls all complete in order (test_multi_rpc, test_py_tensors_multi_async_call)', () => {
    expect(r0.multiRpc).toBe(210);
    expect(r0.manyFutures).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(r0.then).toBe(20);
  });

  it('arguments and results keep their JS types: undefined vs null, bigint, Map, typed arrays, -0, strided tensors (test_py_tensors_in_container, test_non_cont_tensors)', () => {
    expect(r0.args).toEqual(['undefined', 'null', 'number', 'string', 'bigint']);
    expect(r0.echo).toEqual({
      t: {
        shape: [3, 2],
        dtype: 'float64',
        values: [
          [1, 4],
          [2, 5],
          [3, 6],
        ],
        contiguous: false,
      },
      n: [`${1n << 60n}n`, [['k', { Int32Array: [7] }]], null, 'str', true, -0],
    });
  });

  it('remote errors keep their name and message, prefixed with the callee (test_py_raise_in_user_func, *_escaped_str, test_py_function_exception)', () => {
    expect(r0.remoteError).toEqual(remoteError('ValueError', 1, 'Expected error'));
    expect(r0.escapedError).toEqual(remoteError('ValueError', 1, 'Expected error "with" \\escapes\\ and\nnewlines'));
    expect(r0.typeError).toEqual(remoteError('TypeError', 1, 'expected a number, got string'));
  });

  it('a function the callee did not register fails, naming the function and the worker (test_function_not_on_callee)', () => {
    expect(r0.unknownFn).toMatchObject({
      code: 'REMOTE',
      message: `On ${worker(1)}:\nfunction 'doesNotExist' is not registered on ${worker(1)}; register(name, fn) it on every worker`,
    });
    expect(r0.unregistered).toMatchObject({
      code: 'UNKNOWN_FUNCTION',
      message: expect.stringContaining('is not registered: call register(name, fn)'),
    });
  });

  it('nested calls and a 20-hop async chain through every worker terminate cleanly (test_nested_rpc, test_multi_layer_nested_async_rpc)', () => {
    expect(r0.nested).toEqual([6]);
    expect(r0.multiLayer).toBe(20);
  });

  it('functions returning promises or futures answer when they settle (test_async_function_simple/raise/chained/multi_fanout/remote, test_return_future)', () => {
    expect(r0.asyncAdd).toBe(4);
    expect(r0.asyncRaise).toEqual(remoteError('TypeError', 1, 'raised after await'));
    expect(r0.futureChain).toBe(3);
    expect(r0.fanout).toEqual([7, 7, 7]);
    expect(r0.returnsFuture).toBe('a future is awaited like a promise');
    expect(r0.asyncRemote).toBe(5);
  });

  it('timeouts: per call, the default, 0 for none; a new default applies only to new calls (test_rpc_timeouts, test_default_timeout_used, test_set_and_get_default_rpc_timeout)', () => {
    const timedOut = (ms: number) => ({
      name: 'RpcError',
      code: 'TIMEOUT',
      message: `RPC ran for more than set timeout (${ms} ms) and will now be marked with an error`,
    });
    expect(r0.timeout).toEqual(timedOut(100));
    expect(r0.defaultTimeout).toEqual([0.1, timedOut(100)]);
    expect(r0.oldCallKeepsItsTimeout).toBe(300);
    expect(r0.noTimeout).toBe(300);
    expect(r0.badTimeout).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it("after shutdown every call fails with PyTorch's message; a second shutdown is a no-op (test_shutdown_followed_by_rpc)", () => {
    const notInit = {
      name: 'RpcError',
      code: 'NOT_INITIALIZED',
      message: 'RPC has not been initialized. Call initRpc first.',
    };
    for (const r of all) expect(r.afterShutdown).toEqual([notInit, notInit, notInit, notInit]);
    expect(r0.shutdownTwice).toBeNull();
  });
});
