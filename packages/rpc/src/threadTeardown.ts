import { BroadcastChannel, Worker, isMainThread, threadId } from 'node:worker_threads';

const CHANNEL = 'wiregrad.rpc.threadTeardown';
/** How long terminate() waits for the thread's RPC agent to close its sockets. */
const CLOSE_WAIT_MS = 3000;

type Signal = { up: number } | { down: number } | { terminating: number };

/**
 * Note [Terminating a thread that runs RPC]
 * zeromq.js aborts the whole process when a worker_threads thread is terminated while one of
 * its sockets still has a receive pending (Note [Teardown never aborts]), and an RPC agent
 * always has one until shutdown(); no JavaScript runs in a thread that is being terminated,
 * so the thread cannot close its sockets by itself. So every thread that loads
 * @wiregrad/rpc says on a BroadcastChannel when its agent is up and down, and
 * `Worker.prototype.terminate`, in each thread that loads @wiregrad/rpc, first asks a thread
 * whose agent is up to shut it down (not gracefully: terminating is not leaving politely) and
 * waits for it, at most 3 s, before terminating it. A thread busy for longer in synchronous
 * code cannot answer; process.exit() with such threads alive is not covered either.
 */
const channel = new BroadcastChannel(CHANNEL);
channel.unref();
const agentsUp = new Set<number>();
let shutDownHere: (() => Promise<void>) | null = null;

channel.onmessage = (event) => {
  const signal = (event as { data: Signal }).data;
  if ('up' in signal) agentsUp.add(signal.up);
  else if ('down' in signal) agentsUp.delete(signal.down);
  else if (signal.terminating === threadId && shutDownHere) void shutDownHere();
};

/** The agent of this thread is up (initRpc) or down (shutdown). `close` shuts it down without the barrier. */
export function announceAgent(close: (() => Promise<void>) | null): void {
  shutDownHere = close;
  if (!isMainThread) channel.postMessage(close ? { up: threadId } : { down: threadId });
}

const PATCHED = Symbol.for('wiregrad.rpc.terminatePatched');
const proto = Worker.prototype as Worker & { [PATCHED]?: true };
if (!proto[PATCHED]) {
  proto[PATCHED] = true;
  const terminate = proto.terminate;
  proto.terminate = async function (this: Worker): Promise<number> {
    const id = this.threadId;
    if (agentsUp.has(id)) {
      const reply = new BroadcastChannel(CHANNEL);
      try {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, CLOSE_WAIT_MS);
          reply.onmessage = (event) => {
            const s = (event as { data: Signal }).data;
            if ('down' in s && s.down === id) {
              clearTimeout(timer);
              resolve();
            }
          };
          this.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          reply.postMessage({ terminating: id } satisfies Signal);
        });
      } finally {
        reply.close();
      }
    }
    return terminate.call(this);
  };
}
