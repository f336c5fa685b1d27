import type { Agent } from './agent/agent.js';
import { RpcError } from './errors.js';
import { MessageType } from './messages/messageType.js';
import { lookupFunction } from './registry.js';
import { gidKey } from './rref/globallyUniqueId.js';
import type { PythonCall } from './messages/payloads.js';
import { pendingOwnerValues } from './rref/ownerValues.js';
import { rrefContext } from './rref/rrefContext.js';
import type { WorkerInfo } from './agent/workerInfo.js';

/**
 * Runs a registered function (awaiting a returned Promise: PyTorch's async_execution), once
 * the owner RRefs among its arguments have their values (Note [Owner RRef arguments wait for their value]).
 */
export async function runFunction({ fn, args }: PythonCall, self: WorkerInfo): Promise<unknown> {
  const f = lookupFunction(fn);
  if (!f)
    throw new RpcError(
      'UNKNOWN_FUNCTION',
      `function '${fn}' is not registered on ${self}; register(name, fn) it on every worker`,
    );
  const pending = pendingOwnerValues(args);
  if (pending) await pending;
  return await (f as (...a: unknown[]) => unknown)(...args);
}

/** The request handlers of rpc itself: calls, remote calls, RRef fetches and RRef control. */
export function installHandlers(agent: Agent): void {
  const self = agent.self;
  agent.registerHandler(MessageType.SCRIPT_CALL, async (msg) => ({
    type: MessageType.SCRIPT_RET,
    payload: { value: await runFunction(msg.payload, self) },
  }));
  agent.registerHandler(MessageType.PYTHON_CALL, async (msg) => ({
    type: MessageType.PYTHON_RET,
    payload: { value: await runFunction(msg.payload, self) },
  }));
  for (const type of [MessageType.SCRIPT_REMOTE_CALL, MessageType.PYTHON_REMOTE_CALL] as const) {
    agent.registerHandler(type, async (msg) => {
      const { rrefId, forkId } = msg.payload;
      const entry = rrefContext().ownerEntry(rrefId);
      if (forkId) rrefContext().addFork(rrefId, forkId);
      if (!entry.value.done()) {
        try {
          entry.value.setResult(await runFunction(msg.payload, self));
        } catch (e) {
          if (!entry.value.done()) entry.value.setError(e);
          throw e;
        }
      }
      await entry.value.wait();
      return { type: MessageType.REMOTE_RET, payload: {} };
    });
  }
  for (const [type, ret] of [
    [MessageType.PYTHON_RREF_FETCH_CALL, MessageType.PYTHON_RREF_FETCH_RET],
    [MessageType.SCRIPT_RREF_FETCH_CALL, MessageType.SCRIPT_RREF_FETCH_RET],
  ] as const) {
    agent.registerHandler(type, async (msg) => {
      const { rrefId } = msg.payload;
      const entry = rrefContext().owners.get(gidKey(rrefId));
      if (!entry) throw new RpcError('RREF', `RRef ${gidKey(rrefId)} does not exist on its owner ${self} (deleted?)`);
      return { type: ret, payload: { value: await entry.value.wait() } };
    });
  }
  agent.registerHandler(MessageType.RREF_FORK_REQUEST, async (msg) => {
    const { rrefId, forkId } = msg.payload;
    rrefContext().addFork(rrefId, forkId);
    return { type: MessageType.RREF_ACK, payload: {} };
  });
  agent.registerHandler(MessageType.RREF_CHILD_ACCEPT, async (msg) => {
    rrefContext().acceptChild(msg.payload.forkId);
    return { type: MessageType.RREF_ACK, payload: {} };
  });
  agent.registerHandler(MessageType.RREF_USER_DELETE, async (msg) => {
    const { rrefId, forkId } = msg.payload;
    rrefContext().delFork(rrefId, forkId);
    return { type: MessageType.RREF_ACK, payload: {} };
  });
}
