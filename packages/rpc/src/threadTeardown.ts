import {
  BroadcastChannel,
  type MessagePort,
  Worker,
  isMainThread,
  receiveMessageOnPort,
  threadId,
} from 'node:worker_threads';

const CHANNEL = 'wiregrad.rpc.threadTeardown';
/** How long terminate() waits for the thread's RPC agent to close its sockets. */
const CLOSE_WAIT_MS = 3000;

type Signal = { up: number } | { down: number } | { terminating: number } | { exiting: number[]; closed: Int32Array };

/**
 * Note [Terminating a thread that runs RPC]
 * zeromq.js aborts the whole process when a worker_threads thread is terminated while one of
 * its sockets still has a receive pending (Note [Teardown never aborts]), and an RPC agent
 * always has one until shutdown(); no JavaScript runs in a thread that is being terminated,
 * so the thread cannot close its sockets by itself. So every thread that loads
 * @wiregrad/rpc says on a BroadcastChannel when its agent is up and down, and
 * `Worker.prototype.terminate`, in each thread that loads @wiregrad/rpc, first asks a thread
 * whose agent is up to shut it down (not gracefully: terminating is not leaving politely) and
 * waits for it, at most 3 s, before terminating it; a graceful shutdown() the thread is
 * waiting in (its barrier may wait for the very thread that exits) is cut short, so its sockets
 * close all the same (closeNow in shutdown.ts), and so is an initRpc still in its rendezvous (its
 * agent and the rendezvous sockets are open from the start: the agent counts as up from then).
 * process.exit() terminates every thread the same way, but no asynchronous work can run in its
 * 'exit' event: there the exiting thread asks the threads whose agents are up to shut down and
 * blocks (Atomics.wait on a SharedArrayBuffer they count into) until they have, at most 3 s; the
 * threads run on their own event loops meanwhile. A thread busy for longer in synchronous code
 * cannot answer. Both first read the announcements already posted but not yet delivered
 * (receiveMessageOnPort): a thread's "up" and a message it sent afterwards travel on different
 * ports, so the second may arrive first.
 */
const channel = new BroadcastChannel(CHANNEL);
channel.unref();
const agentsUp = new Set<number>();
let shutDownHere: (() => Promise<void>) | null = null;

channel.onmessage = (event) => onSignal((event as { data: Signal }).data);

/** Takes in the announcements posted to this thread but not yet delivered by its event loop. */
function readPosted(): void {
  // Node takes a BroadcastChannel here too (its docs: port <MessagePort> | <BroadcastChannel>); @types/node lists MessagePort only
  const port = channel as unknown as MessagePort;
  for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) onSignal(m.message as Signal);
}

function onSignal(signal: Signal): void {
  if ('up' in signal) agentsUp.add(signal.up);
  else if ('down' in signal) agentsUp.delete(signal.down);
  else if ('terminating' in signal) {
    if (signal.terminating === threadId && shutDownHere) void shutDownHere();
  } else if (signal.exiting.includes(threadId)) {
    // the process is exiting: its main thread waits (blocked) until this thread's sockets are closed
    const closed = signal.closed;
    void (shutDownHere?.() ?? Promise.resolve()).finally(() => {
      Atomics.add(closed, 0, 1);
      Atomics.notify(closed, 0);
    });
  }
}

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
    readPosted();
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

// only the main thread's exit ends the process; a worker thread's own process.exit() ends that thread alone
if (isMainThread)
  process.on('exit', () => {
    readPosted();
    const threads = [...agentsUp];
    if (threads.length === 0) return;
    const closed = new Int32Array(new SharedArrayBuffer(4));
    const exiting = new BroadcastChannel(CHANNEL);
    exiting.postMessage({ exiting: threads, closed } satisfies Signal);
    const deadline = Date.now() + CLOSE_WAIT_MS;
    for (let seen = 0; seen < threads.length && Date.now() < deadline; seen = Atomics.load(closed, 0)) {
      Atomics.wait(closed, 0, seen, deadline - Date.now());
    }
    exiting.close();
  });
