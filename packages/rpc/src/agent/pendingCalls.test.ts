import { describe, expect, it } from 'vitest';
import { RpcError } from '../errors.js';
import { MessageType } from '../messages/messageType.js';
import { PendingCalls } from './pendingCalls.js';
import { WorkerInfo } from './workerInfo.js';

const w1 = new WorkerInfo('worker1', 1);
const w2 = new WorkerInfo('worker2', 2);
const noProtocolErrors = (e: RpcError) => {
  throw e;
};

describe('PendingCalls', () => {
  it('a response resolves its call; an EXCEPTION rejects it as a REMOTE error with the remote name (Note [Remote errors])', async () => {
    const calls = new PendingCalls();
    const a = calls.open(w1, 0);
    const b = calls.open(w1, 0);
    expect(b.id).toBe(a.id + 1);
    calls.settle({ type: MessageType.PYTHON_RET, id: a.id, payload: { value: 3 } }, w1, noProtocolErrors);
    calls.settle(
      {
        type: MessageType.EXCEPTION,
        id: b.id,
        payload: { name: 'ValueError', message: 'On WorkerInfo(id=1, name=worker1):\nbad', stack: 's', code: null },
      },
      w1,
      noProtocolErrors,
    );
    expect((await a.answer).payload).toEqual({ value: 3 });
    await expect(b.answer).rejects.toMatchObject({
      name: 'ValueError',
      code: 'REMOTE',
      message: 'On WorkerInfo(id=1, name=worker1):\nbad',
      remoteStack: 's',
    });
    expect(calls.size).toBe(0);
  });

  it("times out with PyTorch's text; a late answer is dropped", async () => {
    const calls = new PendingCalls();
    const c = calls.open(w1, 20);
    await expect(c.answer).rejects.toThrow(
      new RpcError('TIMEOUT', 'RPC ran for more than set timeout (20 ms) and will now be marked with an error'),
    );
    calls.settle({ type: MessageType.PYTHON_RET, id: c.id, payload: { value: 1 } }, w1, noProtocolErrors);
    expect(calls.size).toBe(0);
  });

  it('a request sent as an answer fails the call as a protocol error', async () => {
    const calls = new PendingCalls();
    const c = calls.open(w1, 0);
    const seen: string[] = [];
    calls.settle({ type: MessageType.PYTHON_CALL, id: c.id, payload: { fn: 'f', args: [] } }, w1, (e) =>
      seen.push(e.message),
    );
    await expect(c.answer).rejects.toMatchObject({ code: 'PROTOCOL' });
    expect(seen).toEqual(['WorkerInfo(id=1, name=worker1) answered with PYTHON_CALL, which is not a response']);
  });

  it("failAll fails one peer's calls, or every call", async () => {
    const calls = new PendingCalls();
    const [a, b, c] = [calls.open(w1, 0), calls.open(w2, 0), calls.open(w1, 0)];
    calls.failAll(w1, () => new RpcError('PEER_DISCONNECTED', 'gone'));
    await expect(a.answer).rejects.toMatchObject({ code: 'PEER_DISCONNECTED' });
    await expect(c.answer).rejects.toMatchObject({ code: 'PEER_DISCONNECTED' });
    expect(calls.size).toBe(1);
    calls.failAll(null, () => new RpcError('SHUTDOWN', 'closing'));
    await expect(b.answer).rejects.toMatchObject({ code: 'SHUTDOWN' });
  });
});
