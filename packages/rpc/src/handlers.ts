import type { Agent } from './agent/agent.js';
import { RpcError } from './errors.js';
import { MessageType } from './messages/messageType.js';
import { lookupFunction } from './registry.js';
import { gidKey, type GloballyUniqueId } from './rref/globallyUniqueId.js';
import { pendingOwnerValues } from './rref/ownerValues.js';
import { rrefContext } from './rref/rrefContext.js';
import type { WorkerInfo } from './agent/workerInfo.js';

interface CallPayload {
  fn: string;
  args: unknown[];
}

/**
 * Runs a registered function (awaiting a returned Promise: PyTorch's async_execution), once
 * the owner RRefs among its arguments have their values (Note [Owner RRef arguments wait for their value]).
 */
export async function runFunction(payload: unknown, self: WorkerInfo): Promise<unknown> {
  const { fn, args } = (payload ?? {}) as Partial<CallPayload>;
  if (typeof fn !== 'string' || !Array.isArray(args))
    throw new RpcError('PROTOCOL', 'a call needs {fn: string, args: array}');
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

const RET: Partial<Record<number, MessageType>> = {
  [MessageType.SCRIPT_CALL]: MessageType.SCRIPT_RET,
  [MessageType.PYTHON_CALL]: MessageType.PYTHON_RET,
};

/** The request handlers of rpc itself: calls, remote calls, RRef fetches and RRef control. */
export function installHandlers(agent: Agent): void {
  const self = agent.self;
  for (const type of [MessageType.SCRIPT_CALL, MessageType.PYTHON_CALL] as const) {
    agent.registerHandler(type, async (msg) => ({
      type: RET[type]!,
      payload: { value: await runFunction(msg.payload, self) },
    }));
  }
  for (const type of [MessageType.SCRIPT_REMOTE_CALL, MessageType.PYTHON_REMOTE_CALL] as const) {
    agent.registerHandler(type, async (msg) => {
      const { rrefId, forkId } = msg.payload as { rrefId: GloballyUniqueId; forkId: GloballyUniqueId | null };
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
      const { rrefId } = msg.payload as { rrefId: GloballyUniqueId };
      const entry = rrefContext().owners.get(gidKey(rrefId));
      if (!entry) throw new RpcError('RREF', `RRef ${gidKey(rrefId)} does not exist on its owner ${self} (deleted?)`);
      return { type: ret, payload: { value: await entry.value.wait() } };
    });
  }
  agent.registerHandler(MessageType.RREF_FORK_REQUEST, async (msg) => {
    const { rrefId, forkId } = msg.payload as { rrefId: GloballyUniqueId; forkId: GloballyUniqueId };
    rrefContext().addFork(rrefId, forkId);
    return { type: MessageType.RREF_ACK, payload: {} };
  });
  agent.registerHandler(MessageType.RREF_CHILD_ACCEPT, async (msg) => {
    rrefContext().acceptChild((msg.payload as { forkId: GloballyUniqueId }).forkId);
    return { type: MessageType.RREF_ACK, payload: {} };
  });
  agent.registerHandler(MessageType.RREF_USER_DELETE, async (msg) => {
    const { rrefId, forkId } = msg.payload as { rrefId: GloballyUniqueId; forkId: GloballyUniqueId };
    rrefContext().delFork(rrefId, forkId);
    return { type: MessageType.RREF_ACK, payload: {} };
  });
}
