import { platform } from '#platform';
import type { PlatformThread } from '../../../platform/types.js';
import { envCount } from '../../../envCount.js';
import { TensorError } from '../../../errors.js';
import { POOL_KERNEL_NAMES as KERNEL_NAMES, type WasmKernelName, type WasmRuntime } from './wasmRuntime.js';

/** One call of a wasm kernel: its export name and numeric arguments. */
export interface WasmTask {
  kernel: WasmKernelName;
  args: readonly number[];
}

const MAX_ARGS = 14;
// control words (Int32): 0 job sequence (-1: stop), 1 finished sequence, 2 error flag, 3 ready,
// 4 claimed sequence (Note [Unstarted tasks are taken back]); args (Float64) from byte ARGS
const JOB = 0;
const DONE = 1;
const FAILED = 2;
const READY = 3;
const CLAIM = 4;
const ARGS = 32;

/**
 * Note [Pool spin]
 * A sleeping thread is woken through the kernel (Atomics.wait/notify: a futex), and on this
 * project's 2-core VM that wake took long enough to show: in the MLP step of `pnpm bench pytorch`
 * the main thread spent ~0.16 ms a step in `post` and ~0.4 ms in `join` waiting for a worker to
 * wake (cpu profile, Node 24). So a worker that finished a job checks for the next one
 * SPIN_LOADS times (~20-25 us) before it sleeps, and the calling thread does the same before it
 * sleeps in join: a burst of kernels (the step's five products, an elementwise op cut in two)
 * hands over without a wake. Blocks of MLP steps: median 1.48-1.53 ms against 1.68-1.82 without
 * (alternated runs, load 1.3-1.7); `add_` on 1M floats 0.064-0.071 ms against 0.106-0.189. The spin is
 * bounded so a busy machine loses at most that much per job, unlike OpenMP's default spin of
 * milliseconds, which collapses on shared cores (Note [Timed blocks] in bench/report.ts).
 * WIREGRAD_POOL_SPIN sets the count (0: sleep at once).
 */
const SPIN_LOADS = spinLoads(platform.env('WIREGRAD_POOL_SPIN'));

/** WIREGRAD_POOL_SPIN's count: a whole number >= 0, else the default. */
export function spinLoads(value: string | undefined): number {
  return envCount(value, 0) ?? 4000;
}

// Note [Pool worker]: plain JavaScript evaluated in the worker, so it needs no loader for
// TypeScript; the platform binds `workerData` (Note [Pool on the web]). It instantiates the
// kernels over the shared memory, says it is ready, and serves jobs posted through its
// control words with Atomics, never returning to its event loop until stopped.
const WORKER_SOURCE = `
const { module, memory, control, names } = workerData;
const wasm = new WebAssembly.Instance(module, { env: { memory } }).exports;
const fns = names.map((name) => wasm[name]);
const ctl = new Int32Array(control);
const args = new Float64Array(control, ${ARGS});
Atomics.store(ctl, ${READY}, 1);
let seen = 0;
for (;;) {
  // a short spin before sleeping catches the next job of a burst (Note [Pool spin])
  for (let spin = 0; spin < ${SPIN_LOADS} && Atomics.load(ctl, ${JOB}) === seen; spin++);
  Atomics.wait(ctl, ${JOB}, seen);
  const seq = Atomics.load(ctl, ${JOB});
  if (seq === seen) continue;
  if (seq < 0) break;
  seen = seq;
  if (Atomics.compareExchange(ctl, ${CLAIM}, seq - 1, seq) !== seq - 1) continue;
  try {
    const list = [];
    for (let i = 0; i < args[1]; i++) list.push(args[2 + i]);
    fns[args[0]](...list);
  } catch {
    Atomics.store(ctl, ${FAILED}, 1);
  }
  Atomics.store(ctl, ${DONE}, seq);
  Atomics.notify(ctl, ${DONE});
}
`;

class PoolWorker {
  readonly control = new Int32Array(new SharedArrayBuffer(ARGS + 8 * (2 + MAX_ARGS)));
  private readonly args = new Float64Array(this.control.buffer, ARGS);
  private seq = 0;
  readonly worker: PlatformThread;

  constructor(runtime: WasmRuntime, startThread: NonNullable<typeof platform.startThread>) {
    this.worker = startThread(WORKER_SOURCE, {
      module: runtime.module,
      memory: runtime.memory,
      control: this.control.buffer,
      names: KERNEL_NAMES,
    });
    this.worker.unref();
  }

  /** Whether a job posted now runs (a thread that has not started runs it once it has, where the host allows). */
  ready(): boolean {
    return platform.threadsRunWhileBlocked || Atomics.load(this.control, READY) === 1;
  }

  post(task: WasmTask): void {
    this.args[0] = KERNEL_NAMES.indexOf(task.kernel);
    this.args[1] = task.args.length;
    for (let i = 0; i < task.args.length; i++) this.args[2 + i] = task.args[i]!;
    this.seq++;
    Atomics.store(this.control, JOB, this.seq);
    Atomics.notify(this.control, JOB);
  }

  /** Takes the posted job back if the worker has not started it (then the caller runs it). */
  takeBack(): boolean {
    return Atomics.compareExchange(this.control, CLAIM, this.seq - 1, this.seq) === this.seq - 1;
  }

  /** Blocks until the posted job is done; false if it threw. */
  join(): boolean {
    for (let spin = 0; spin < SPIN_LOADS && Atomics.load(this.control, DONE) !== this.seq; spin++);
    for (;;) {
      const done = Atomics.load(this.control, DONE);
      if (done === this.seq) break;
      if (platform.threadsRunWhileBlocked) Atomics.wait(this.control, DONE, done);
    }
    return Atomics.exchange(this.control, FAILED, 0) === 0;
  }

  stop(): Promise<number> {
    // referenced again while it stops, so an awaiting caller's process waits for the exit
    this.worker.ref();
    const exited = new Promise<number>((resolve) => this.worker.onceExit(resolve));
    Atomics.store(this.control, JOB, -1);
    Atomics.notify(this.control, JOB);
    return exited;
  }
}

/**
 * Note [Thread pool]
 * PyTorch's intra-op pool: a big kernel is cut into tasks that run at once, the first
 * on the calling thread and the others on workers, and the call returns when all are
 * done, so kernels stay synchronous. Workers share the runtime's wasm memory (the staged
 * operands) and write disjoint regions of the result. They are unref'd: an idle pool
 * never keeps a process alive, and `shutdownThreadPool()` stops them for a clean exit.
 * A task with no ready worker (a host without threads, a page whose workers have not
 * started: Note [Pool on the web]) runs on the calling thread after the first, so the
 * split, and with it every result, does not depend on where the tasks ran.
 *
 * Note [Unstarted tasks are taken back]
 * On a loaded machine a woken worker may wait for a core for milliseconds; a caller that
 * joined it would wait as long, slower than doing the work alone. So each job has a claim
 * word: the worker runs a job only if it claims it first (compare-and-swap of the sequence
 * before it to the job's own), and the calling thread, once its own tasks are done, claims
 * each posted job it can and runs it itself; it waits only for jobs a worker claimed. A
 * worker that finds its job claimed goes back to waiting, and the next job it is posted
 * is claimed from the sequence the caller left. The tasks and their bytes stay the same.
 */
export class ThreadPool {
  private readonly workers: PoolWorker[] = [];

  constructor(
    private readonly runtime: WasmRuntime,
    readonly threads: number,
  ) {
    const start = platform.startThread;
    if (start !== null) for (let i = 1; i < threads; i++) this.workers.push(new PoolWorker(runtime, start));
  }

  /** The threads tasks run on now: the calling thread and the workers that are ready. */
  readyThreads(): number {
    return 1 + this.workers.filter((w) => w.ready()).length;
  }

  /** Runs tasks (at most `threads`) at once; task 0 on the calling thread. */
  run(tasks: readonly WasmTask[]): void {
    if (tasks.length > this.threads)
      throw new TensorError('KERNEL_FAILED', `${tasks.length} tasks for a pool of ${this.threads} threads`);
    const posted: [PoolWorker, WasmTask][] = [];
    const here: WasmTask[] = [tasks[0]!];
    for (let i = 1; i < tasks.length; i++) {
      const worker = this.workers[i - 1];
      if (worker?.ready()) {
        worker.post(tasks[i]!);
        posted.push([worker, tasks[i]!]);
      } else here.push(tasks[i]!);
    }
    let error: unknown = null;
    try {
      for (const task of here) this.runtime.call(task);
    } catch (e) {
      error = e;
    }
    // the jobs no worker started run here (See Note [Unstarted tasks are taken back])
    let workersOk = true;
    for (const [worker, task] of posted) {
      if (!worker.takeBack()) workersOk = worker.join() && workersOk;
      else if (error === null) {
        // a task meant for a worker fails as it would have there
        try {
          this.runtime.call(task);
        } catch {
          workersOk = false;
        }
      }
    }
    if (error !== null) throw error;
    if (!workersOk)
      throw new TensorError('KERNEL_FAILED', `a wasm kernel failed on a pool thread (${tasks[0]!.kernel})`);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.stop()));
  }
}
