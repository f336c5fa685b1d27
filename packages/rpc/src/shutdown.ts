import type { OutgoingMessage } from './messages/message.js';
import { RpcError } from './errors.js';
import { rpcAutogradHooks } from './hooks.js';
import { MessageType } from './messages/messageType.js';
import { register } from './registry.js';
import { resetRRefContext } from './rref/rrefContext.js';
import { type RpcState, maybeRpcState, setRpcState } from './state.js';
import { announceAgent, untilTerminated } from './threadTeardown.js';

/** names of the workers that announced their shutdown to this worker */
let intents = new Set<string>();

register('_wiregrad.shutdownIntent', (name: string) => {
  intents.add(name);
  return true;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `done()` or the deadline (then throws what `missing()` says). */
async function until(done: () => boolean, deadline: number, missing: () => string): Promise<void> {
  while (!done()) {
    if (Date.now() >= deadline) throw new RpcError('TIMEOUT', missing());
    await sleep(10);
  }
}

/** What is left until `deadline`, as an RPC timeout (0: none, for a shutdown without a limit). */
function remainingMs(deadline: number): number {
  return deadline === Infinity ? 0 : Math.max(1, deadline - Date.now());
}

async function settled(s: RpcState, deadline: number): Promise<void> {
  while (s.agent.pendingCount() > 0 && Date.now() < deadline) await sleep(5);
}

/** Sends `type` to every other live member; a member that is gone or never answers in time is skipped. */
async function tellEveryone(s: RpcState, deadline: number, msg: (to: string) => OutgoingMessage): Promise<void> {
  const others = s.agent.workerInfos().filter((w) => w !== s.self);
  await Promise.allSettled(others.map((w) => s.agent.send(w, msg(w.name), remainingMs(deadline))));
}

/**
 * Note [Shutdown barrier]
 * PyTorch's _wait_all_workers, without a leader that could die: every worker first lets its
 * own outstanding calls settle, then tells every live member it intends to shut down, and
 * waits until every live member has told it the same. Members that die or leave meanwhile
 * (Note [Membership]) stop counting at once, so a dead worker never holds the barrier up;
 * members that join meanwhile count. Workers keep serving requests the whole time, so
 * uneven workloads finish. Every wait is bounded by the shutdown timeout: past it the
 * sockets close anyway and shutdown() rejects, naming the workers it waited for.
 */
export async function shutdownBarrier(s: RpcState, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await settled(s, deadline);
  intents.add(s.self.name);
  const waitingFor = () =>
    s.agent
      .workerInfos()
      .filter((w) => !intents.has(w.name))
      .map((w) => w.name);
  const sent = tellEveryone(s, deadline, () => ({
    type: MessageType.PYTHON_CALL,
    payload: { fn: '_wiregrad.shutdownIntent', args: [s.self.name] },
  }));
  await until(
    () => waitingFor().length === 0,
    deadline,
    () => `shutdown timed out after ${timeoutMs} ms waiting for workers ${waitingFor().join(', ')}`,
  );
  await sent; // every member has heard this worker's intent before its sockets close
}

/** A worker that joined a running group leaves it alone: its calls settle, then every member hears it leaves. */
export async function leaveGroup(s: RpcState, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await settled(s, deadline);
  await tellEveryone(s, deadline, () => ({ type: MessageType.LEAVE_REQ, payload: null }));
}

/** A new barrier for a new group (called by initRpc). */
export function resetBarrier(): void {
  intents = new Set();
}

export interface ShutdownOptions {
  graceful?: boolean;
  /** seconds the barrier may take before sockets are closed anyway; 0 = no limit (default 60) */
  timeout?: number;
}

/**
 * Leaves the group. Graceful (default): this worker's outstanding calls settle, then, in a
 * group of fixed worldSize, an all-worker barrier among the live members (Note [Shutdown
 * barrier]); a worker that joined a running group just tells every member it leaves. Then
 * every socket closes. Afterwards every call rejects with "RPC has not been initialized".
 */
export function shutdown(opts: ShutdownOptions = {}): Promise<void> {
  const s = maybeRpcState();
  if (!s) return Promise.resolve();
  if (s.shuttingDown) return Promise.reject(new RpcError('SHUTDOWN', 'shutdown() is already in progress'));
  s.shuttingDown = true;
  return (inProgress = leave(s, opts));
}

/** The shutdown under way, and how to cut its barrier short (closeNow). */
let inProgress: Promise<void> | null = null;
let cutShort: ((e: Error) => void) | null = null;
let cutByTermination = false;

async function leave(s: RpcState, opts: ShutdownOptions): Promise<void> {
  const timeout = opts.timeout === 0 ? Infinity : (opts.timeout ?? 60) * 1000;
  let error: unknown = null;
  try {
    if (opts.graceful !== false) {
      rpcAutogradHooks().beforeShutdown?.();
      const cut = new Promise<never>((_, reject) => (cutShort = reject));
      await Promise.race([cut, s.dynamic && s.self.id !== 0 ? leaveGroup(s, timeout) : shutdownBarrier(s, timeout)]);
    }
  } catch (e) {
    error = e;
  } finally {
    cutShort = null;
    s.store?.close();
    await s.agent.close();
    rpcAutogradHooks().onShutdown?.();
    resetRRefContext();
    setRpcState(null);
    inProgress = null;
    announceAgent(null);
  }
  // cut short: the thread is being terminated, and a rejection would reach its parent as its 'error'
  if (error && cutByTermination) return untilTerminated();
  if (error) throw error;
}

/**
 * Closes this thread's agent now, for a thread that is being terminated (Note [Terminating a
 * thread that runs RPC]): not gracefully, and when a graceful shutdown is already waiting in
 * its barrier (a worker thread's usual last statement), that barrier is cut short, so the
 * sockets are closed before the thread goes, whatever it was doing.
 */
export async function closeNow(): Promise<void> {
  if (!maybeRpcState()) return;
  if (!inProgress) return shutdown({ graceful: false });
  cutByTermination = cutShort !== null;
  cutShort?.(new RpcError('SHUTDOWN', 'the graceful shutdown was cut short: the thread is being terminated'));
  await inProgress.catch(() => {});
}
