import { RpcError } from './errors.js';
import { Future } from './future.js';
import { MessageType } from './messages/messageType.js';
import { register } from './registry.js';
import type { RpcState } from './state.js';

interface Barrier {
  intents: Set<string>;
  allIn: Future<void>;
  proceed: Future<void>;
}

let barrier: Barrier = freshBarrier();

function freshBarrier(): Barrier {
  return { intents: new Set(), allIn: new Future(), proceed: new Future() };
}

let worldSize = 0;

function arrive(name: string): void {
  barrier.intents.add(name);
  if (barrier.intents.size >= worldSize && !barrier.allIn.done()) barrier.allIn.setResult();
}

register('_wiregrad.shutdownIntent', (name: string) => {
  arrive(name);
  return true;
});
register('_wiregrad.shutdownProceed', () => {
  if (!barrier.proceed.done()) barrier.proceed.setResult();
  return true;
});

function bounded<T>(p: Promise<T>, deadline: number, what: () => string): Promise<T> {
  const left = deadline - Date.now();
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<never>((_, rej) => {
      timer = setTimeout(() => rej(new RpcError('TIMEOUT', what())), Math.max(0, left));
    }),
  ]).finally(() => clearTimeout(timer));
}

async function settled(s: RpcState, deadline: number): Promise<void> {
  while (s.agent.pendingCount() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
}

/**
 * Note [Shutdown barrier]
 * PyTorch's _wait_all_workers: the leader is the first name in sorted order. Every worker
 * first lets its own outstanding calls settle, then a follower reports its intent to the
 * leader; when all `worldSize` intents are in, the leader tells every follower to proceed.
 * Workers keep serving requests the whole time, so uneven workloads finish. Every wait is
 * bounded by the shutdown timeout: past it the sockets close anyway and shutdown() rejects.
 */
export async function shutdownBarrier(s: RpcState, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const names = s.agent.workerInfos().map((w) => w.name).sort();
  const leader = s.agent.workerInfo(names[0]!)!;
  await settled(s, deadline);
  const missing = () => `shutdown timed out after ${timeoutMs} ms waiting for workers ${names.filter((n) => !barrier.intents.has(n)).join(', ')}`;
  const call = (to: string, fn: string, args: unknown[]) =>
    s.agent.send(s.agent.workerInfo(to)!, { type: MessageType.PYTHON_CALL, payload: { fn, args } }, Math.max(1, deadline - Date.now()));
  if (leader === s.self) {
    arrive(s.self.name);
    await bounded(barrier.allIn.wait(), deadline, missing);
    await Promise.all(names.filter((n) => n !== s.self.name).map((n) => call(n, '_wiregrad.shutdownProceed', [])));
  } else {
    await call(leader.name, '_wiregrad.shutdownIntent', [s.self.name]);
    await bounded(barrier.proceed.wait(), deadline, () => `shutdown timed out after ${timeoutMs} ms waiting for the leader ${leader.name}`);
  }
}

/** A new barrier for a new group (called by initRpc). */
export function resetBarrier(size: number): void {
  barrier = freshBarrier();
  worldSize = size;
}
