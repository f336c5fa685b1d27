import {
  BroadcastChannel,
  type MessagePort,
  Worker,
  getEnvironmentData,
  isMainThread,
  receiveMessageOnPort,
  setEnvironmentData,
  threadId,
} from 'node:worker_threads';

/** The channel (and environment data key) of this protocol; another version of the library uses another name. */
export const CHANNEL = 'wiregrad.rpc.threadTeardown.v2';
/** How long terminate() and process.exit() wait for a thread's RPC agent to close its sockets. */
const CLOSE_WAIT_MS = 3000;
/**
 * Note [Reaped before released]
 * Closing a zeromq socket hands it to its context's reaper thread, which frees it a moment later,
 * and a thread's isolate being torn down while that reaper still frees a socket corrupted the
 * process's heap (glibc: 'corrupted double-linked list', SIGABRT; gdb: the reaper in ~dealer_t
 * while the worker ran Isolate::Delete). It showed once a thread's code loaded fast (bundled,
 * Note [Bundled fixtures]): process.exit() while a thread waited in initRpc's rendezvous aborted
 * 4-7 of 40 processes, the rendezvous DEALER closed just before the slot was cleared. zeromq.js
 * says nothing when the reaper is done, so a thread that is being terminated or whose process
 * exits clears its slot REAP_MS after its sockets closed, not at once (0 of 40 aborted with 20 ms);
 * terminate() and the 'exit' event wait for it as before. A thread that shuts down for any other
 * reason clears it at once.
 */
const REAP_MS = 50;
/** Threads that can hold sockets at once (beyond them a thread opens its sockets unguarded). */
const SLOTS = 1024;
/** The table's layout: [EXITING] is 1 once the main thread runs its 'exit' event, then SLOTS open, SLOTS doomed. */
const EXITING = 0;
const OPEN = 1;
const DOOMED = OPEN + SLOTS;

type Signal =
  { terminating: number } | { exiting: number[] } | { table: Int32Array; owner: number } | { loaded: number };

/**
 * Note [Terminating a thread that runs RPC]
 * zeromq.js aborts the whole process when a worker_threads thread is terminated while one of its
 * sockets still has a receive pending (Note [Teardown never aborts]), and an RPC agent always has
 * one until shutdown(); no JavaScript runs in a thread that is being terminated, so the thread
 * cannot close its sockets by itself. So `Worker.prototype.terminate`, in each thread that loads
 * @wiregrad/rpc, first asks a thread whose sockets are open to shut its agent down (not gracefully:
 * terminating is not leaving politely) and waits for it, at most 3 s or until the thread exits,
 * before terminating it; a graceful shutdown() the thread is waiting in (its barrier may wait for
 * the very thread that exits) is cut short, so its sockets close all the same (closeNow in
 * shutdown.ts), and so is an initRpc still in its rendezvous (cutting it short closes its sockets,
 * and an initRpc that got past it anyway shuts down as soon as it resolves); cut short, either
 * never settles (untilTerminated). process.exit() terminates every thread the same way, but no
 * asynchronous work can run in its 'exit' event: there the main thread asks those threads to shut
 * down and blocks (Atomics.wait) until they have, at most 3 s; the threads run on their own event
 * loops meanwhile. A thread busy for longer in synchronous code cannot answer.
 * Which threads have sockets open is not told by a message: a thread starting initRpc opens its
 * sockets on its own core while the process tears down, and its "up" could come after the 'exit'
 * event read the messages posted so far; the thread was then terminated with sockets just opened
 * (SIGABRT in about a third of the processes that exited or terminated their threads at an instant
 * swept over the first 12 ms of a thread's initRpc). Nor did cutting initRpc short suffice: one
 * past its rendezvous resolved with its agent up. Instead threads share a table (a
 * SharedArrayBuffer each Worker inherits through setEnvironmentData): a thread writes its id in an
 * open slot (Atomics) before it creates its first socket and clears it once every socket is closed;
 * terminate() writes the thread's id among the doomed, and the 'exit' event sets EXITING, before
 * they read the open slots. A thread that finds itself doomed or the process exiting after it wrote
 * its slot clears it and opens nothing (initRpc never settles: untilTerminated). Atomics are
 * sequentially consistent, so one side always sees the other: the thread opens nothing, or the
 * terminating side waits for its slot to clear. Clearing it notifies the slot (Atomics.notify),
 * which wakes both waits: terminate() in Atomics.waitAsync, so it returns as soon as the sockets
 * are closed and its event loop runs on meanwhile (it polled every 5 ms before: the median
 * terminate() of a thread with its agent up took 10 ms then, 6.5 now), and the 'exit' event in
 * Atomics.wait. A thread started before its parent loaded @wiregrad/rpc has a table of its own,
 * which it posts on the channel when it loads the library, as it starts initRpc and when another
 * thread loads it; the others take it in (and read the posted ones first), but there the old race
 * remains: load @wiregrad/rpc in the main thread before starting threads that use it.
 */
const inherited = getEnvironmentData(CHANNEL);
const table = inherited instanceof Int32Array ? inherited : new Int32Array(new SharedArrayBuffer(4 * (DOOMED + SLOTS)));
setEnvironmentData(CHANNEL, table); // threads started from here on share it
/** The tables of threads started before their parent loaded @wiregrad/rpc (their own), by thread. */
const adopted = new Map<number, Int32Array>();
const tables = () => [table, ...adopted.values()];

const channel = new BroadcastChannel(CHANNEL);
channel.unref();
const postTable = () => {
  if (!isMainThread && table !== inherited) channel.postMessage({ table, owner: threadId } satisfies Signal);
};
postTable();
channel.postMessage({ loaded: threadId } satisfies Signal);
let shutDownHere: (() => Promise<void>) | null = null;
/** The slot this thread's id is in while its sockets may be open (-1: none). */
let mySlot = -1;

channel.onmessage = (event) => onSignal((event as { data: unknown }).data);

/** Acts on a signal; anything else on the channel (a malformed or foreign message) is ignored. */
function onSignal(data: unknown): void {
  const s = (typeof data === 'object' && data !== null ? data : {}) as Partial<Record<string, unknown>>;
  if (s['table'] instanceof Int32Array && typeof s['owner'] === 'number') adopted.set(s['owner'], s['table']);
  else if (typeof s['loaded'] === 'number') postTable();
  else if (s['terminating'] === threadId || (Array.isArray(s['exiting']) && s['exiting'].includes(threadId)))
    void shutDownHere?.();
}

/** Takes in the signals posted to this thread but not yet delivered by its event loop (tables). */
function readPosted(): void {
  // Node takes a BroadcastChannel here too (its docs: port <MessagePort> | <BroadcastChannel>); @types/node lists MessagePort only
  const port = channel as unknown as MessagePort;
  for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) onSignal(m.message);
}

/** Writes `id` into a free slot of `t` among [from, from + SLOTS); -1 when all are taken. */
function claim(t: Int32Array, from: number, id: number): number {
  for (let i = from; i < from + SLOTS; i++) if (Atomics.compareExchange(t, i, 0, id) === 0) return i;
  return -1;
}

function release(t: Int32Array, slot: number): void {
  if (slot < 0) return;
  Atomics.store(t, slot, 0);
  Atomics.notify(t, slot);
}

function find(t: Int32Array, from: number, id: number): number {
  for (let i = from; i < from + SLOTS; i++) if (Atomics.load(t, i) === id) return i;
  return -1;
}

/**
 * This thread is about to open its sockets (initRpc, before the first: `close` cuts it short), its
 * agent is up (`close` shuts it down without the barrier), or every socket is closed (null). False,
 * having opened nothing, when the process exits or this thread is being terminated.
 */
export function announceAgent(close: (() => Promise<void>) | null): boolean {
  shutDownHere = close;
  if (isMainThread) return true;
  if (!close) {
    const slot = mySlot;
    mySlot = -1;
    // see Note [Reaped before released]
    if (slot >= 0 && (Atomics.load(table, EXITING) !== 0 || find(table, DOOMED, threadId) >= 0))
      setTimeout(() => release(table, slot), REAP_MS);
    else release(table, slot);
    return true;
  }
  if (mySlot >= 0) return true;
  // a table of its own again, for a parent that loaded @wiregrad/rpc after this thread did
  postTable();
  mySlot = claim(table, OPEN, threadId);
  if (mySlot >= 0 && (Atomics.load(table, EXITING) !== 0 || find(table, DOOMED, threadId) >= 0)) {
    announceAgent(null);
    return false;
  }
  return true;
}

/**
 * What initRpc and shutdown() return in a thread that is being terminated: they never settle (a
 * rejection reached the parent as the thread's 'error' before the thread was gone: exit code 1 in
 * 7 of 16 processes that terminated a thread in its rendezvous, where nothing listens), and the
 * thread stays alive until it is terminated.
 */
export function untilTerminated(): Promise<never> {
  return new Promise(() => setInterval(() => {}, 1 << 30));
}

/** Atomics.waitAsync: Node has it since 16, TypeScript types it from lib ES2024 on (ours is ES2022). */
const { waitAsync } = Atomics as unknown as {
  waitAsync(
    t: Int32Array,
    index: number,
    value: number,
    timeout: number,
  ): { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };
};

/**
 * Resolves once `t[slot]` no longer holds `id` (release() notifies the slot), `exited` resolves,
 * or CLOSE_WAIT_MS have passed; the event loop stays free meanwhile (Atomics.waitAsync).
 */
async function untilReleased(t: Int32Array, slot: number, id: number, exited: Promise<void>): Promise<void> {
  const deadline = Date.now() + CLOSE_WAIT_MS;
  for (;;) {
    const wait = waitAsync(t, slot, id, Math.max(0, deadline - Date.now()));
    // not (or no longer) `id`, out of time, or the thread is gone: done; woken ('ok'): look again
    if (!wait.async || (await Promise.race([wait.value, exited])) !== 'ok') return;
  }
}

const PATCHED = Symbol.for('wiregrad.rpc.terminatePatched');
const proto = Worker.prototype as Worker & { [PATCHED]?: true };
if (!proto[PATCHED]) {
  proto[PATCHED] = true;
  const terminate = proto.terminate;
  proto.terminate = async function (this: Worker): Promise<number> {
    const id = this.threadId;
    readPosted();
    const doomed = tables().map((t) => [t, claim(t, DOOMED, id)] as const);
    try {
      const open = tables()
        .map((t) => [t, find(t, OPEN, id)] as const)
        .find(([, slot]) => slot >= 0);
      if (open) {
        const [t, slot] = open;
        // open until the wait is over: it keeps the event loop alive, which a pending Atomics.waitAsync does not
        const ask = new BroadcastChannel(CHANNEL);
        let onExit = () => {};
        const exited = new Promise<void>((r) => (onExit = r));
        this.once('exit', onExit);
        try {
          ask.postMessage({ terminating: id } satisfies Signal);
          await untilReleased(t, slot, id, exited);
        } finally {
          this.off('exit', onExit);
          ask.close();
        }
      }
      return await terminate.call(this);
    } finally {
      for (const [t, slot] of doomed) release(t, slot);
    }
  };
}

// only the main thread's exit ends the process; a worker thread's own process.exit() ends that thread alone
if (isMainThread)
  process.on('exit', () => {
    readPosted();
    const open: [Int32Array, number, number][] = [];
    for (const t of tables()) {
      Atomics.store(t, EXITING, 1);
      for (let i = OPEN; i < OPEN + SLOTS; i++) {
        const id = Atomics.load(t, i);
        if (id !== 0) open.push([t, i, id]);
      }
    }
    if (open.length === 0) return;
    const exiting = new BroadcastChannel(CHANNEL);
    exiting.postMessage({ exiting: open.map(([, , id]) => id) } satisfies Signal);
    const deadline = Date.now() + CLOSE_WAIT_MS;
    for (const [t, slot, id] of open) {
      while (Atomics.load(t, slot) === id && Date.now() < deadline) {
        Atomics.wait(t, slot, id, Math.max(0, deadline - Date.now()));
      }
    }
    exiting.close();
  });
