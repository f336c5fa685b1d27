import type { Device, Tensor } from '@wiregrad/tensor';
import { AutogradError } from '../errors.js';
import type { InputBuffer } from './inputBuffer.js';
import type { Node } from './node.js';
import { ReadyQueue } from './readyQueue.js';
import { popGraphTask, pushGraphTask } from './threadState.js';

/** A grad() output to capture: the grad arriving at input `inputIdx` of a node goes to `capturedVars[outputIdx]`. */
export interface Capture {
  inputIdx: number;
  outputIdx: number;
  /** PyTorch's (deprecated) capture hooks: each may replace the captured gradient; the distributed engine uses them */
  hooks: ((grad: Tensor | null) => Tensor | null)[];
}

/** PyTorch's ExecInfo: whether a node must run (`needed`) and which of its gradients grad() captures. */
export class ExecInfo {
  needed = false;
  captures: Capture[] | null = null;

  shouldExecute(): boolean {
    return this.needed || this.captures !== null;
  }
}

/** How a GraphTask runs (PyTorch's GraphTask constructor arguments); all but keepGraph have defaults. */
export interface GraphTaskOptions {
  keepGraph: boolean;
  /** default false */
  createGraph?: boolean;
  /** default 0 (not nested) */
  reentrantDepth?: number;
  /** default a new one (a nested pass shares its parent's) */
  cpuReadyQueue?: ReadyQueue;
  /** default null (set to cpu when the task is first queued) */
  owner?: Device | null;
  /** default false */
  exitOnError?: boolean;
}

/**
 * PyTorch's GraphTask: the state of one backward pass (graph_task.h). `outstandingTasks`
 * counts queued and running NodeTasks; the task is complete when it reaches 0, or at the
 * first error when `exitOnError`. `notReady` holds the buffers of nodes still waiting for
 * dependencies; `execInfo` is empty for a plain backward() (everything reachable runs).
 * The first error wins and settles `futureResult` at once (PyTorch's set_exception); otherwise
 * `markAsCompletedAndRunPostProcessing` settles it with `capturedVars`.
 */
export class GraphTask {
  outstandingTasks = 0;
  hasError = false;
  futureCompleted = false;
  error: unknown = null;
  readonly dependencies = new Map<Node, number>();
  readonly notReady = new Map<Node, InputBuffer>();
  readonly execInfo = new Map<Node, ExecInfo>();
  capturedVars: (Tensor | null)[] = [];
  /** every node compute_dependencies reached (PyTorch's nodes_in_graph_) */
  readonly nodesInGraph = new Set<Node>();
  readonly finalCallbacks: (() => void)[] = [];
  /** PyTorch's thread_locals_ grad mode: on while the nodes run exactly when building a graph (createGraph) */
  readonly gradModeDuringBackward: boolean;
  /** the device (lane) that created the task and waits for it: cpu for a caller; wake-ups go there */
  owner: Device | null;
  /** made when someone asks for futureResult (a synchronous backward never does) */
  private completion: {
    promise: Promise<(Tensor | null)[]>;
    resolve: (v: (Tensor | null)[]) => void;
    reject: (e: unknown) => void;
  } | null = null;
  private outcome: { value: (Tensor | null)[] } | { error: unknown } | null = null;

  /** keep the saved tensors after the pass (retainGraph) */
  readonly keepGraph: boolean;
  /** record the backward pass as a graph of its own (createGraph) */
  readonly createGraph: boolean;
  /** how many passes this one is nested in (See Note [Reentrant backward]) */
  readonly reentrantDepth: number;
  readonly cpuReadyQueue: ReadyQueue;
  /** complete at the first error instead of when nothing is outstanding (the distributed engine) */
  readonly exitOnError: boolean;

  constructor({
    keepGraph,
    createGraph = false,
    reentrantDepth = 0,
    cpuReadyQueue = new ReadyQueue(),
    owner = null,
    exitOnError = false,
  }: GraphTaskOptions) {
    this.keepGraph = keepGraph;
    this.createGraph = createGraph;
    this.reentrantDepth = reentrantDepth;
    this.cpuReadyQueue = cpuReadyQueue;
    this.owner = owner;
    this.exitOnError = exitOnError;
    this.gradModeDuringBackward = createGraph;
  }

  /**
   * PyTorch's future_result_: the captured grads, or the first error. The promise is made on
   * first use: a promise settled inside a synchronous loop queues a reaction job that keeps
   * it (and what it holds) alive until the loop yields, one per backward().
   */
  get futureResult(): Promise<(Tensor | null)[]> {
    if (this.completion === null) {
      let resolve!: (v: (Tensor | null)[]) => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<(Tensor | null)[]>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      promise.catch(() => {});
      this.completion = { promise, resolve, reject };
      const o = this.outcome;
      if (o !== null) {
        if ('error' in o) reject(o.error);
        else resolve(o.value);
      }
    }
    return this.completion.promise;
  }

  completed(): boolean {
    return this.outstandingTasks <= 0 || (this.exitOnError && this.hasError);
  }

  /** PyTorch's set_exception: the first error wins and completes the future with it. */
  setError(e: unknown): void {
    if (this.hasError) return;
    this.hasError = true;
    this.error = e;
    if (!this.futureCompleted) {
      this.futureCompleted = true;
      this.outcome = { error: e };
      this.completion?.reject(e);
    }
  }

  /**
   * PyTorch's mark_as_completed_and_run_post_processing: once, the leftovers check and the
   * final callbacks (exec_post_processing), then the future; an error there fails the task.
   */
  markAsCompletedAndRunPostProcessing(): void {
    if (this.futureCompleted) return;
    try {
      this.execPostProcessing();
    } catch (e) {
      this.setError(e);
      return;
    }
    this.futureCompleted = true;
    this.outcome = { value: this.capturedVars };
    this.completion?.resolve(this.capturedVars);
  }

  private execPostProcessing(): void {
    if (this.notReady.size > 0)
      throw new AutogradError('INVALID_STATE', 'could not compute gradients for some functions');
    // a callback may queue more callbacks (queueCallback sees this task as current)
    pushGraphTask(this);
    try {
      for (let i = 0; i < this.finalCallbacks.length; i++) this.finalCallbacks[i]!();
    } finally {
      popGraphTask();
    }
  }
}
