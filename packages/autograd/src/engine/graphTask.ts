import type { Tensor } from '@wiregrad/tensor';
import type { Device } from '@wiregrad/tensor';
import { InputBuffer } from './inputBuffer.js';
import type { Node } from './node.js';
import type { ReadyQueue } from './readyQueue.js';

/** A grad() output to capture: the grad arriving at input `inputIdx` of a node goes to `capturedVars[outputIdx]`. */
export interface Capture {
  inputIdx: number;
  outputIdx: number;
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

/**
 * PyTorch's GraphTask: the state of one backward pass (graph_task.h). `outstandingTasks`
 * counts queued and running NodeTasks; the task completes when it reaches 0, or at the first
 * error when `exitOnError`. `notReady` holds the buffers of nodes still waiting for
 * dependencies; `execInfo` is empty for a plain backward() (everything reachable runs).
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
  readonly nodesInGraph = new Set<Node>();
  readonly finalCallbacks: (() => void)[] = [];
  /** grad mode while the nodes run: on exactly when building a graph (createGraph) */
  readonly gradModeDuringBackward: boolean;
  private readonly completion: { promise: Promise<(Tensor | null)[]>; resolve: (v: (Tensor | null)[]) => void; reject: (e: unknown) => void };

  constructor(
    readonly keepGraph: boolean,
    readonly createGraph: boolean,
    readonly reentrantDepth: number,
    readonly cpuReadyQueue: ReadyQueue,
    readonly owner: Device | null,
    readonly exitOnError = false,
  ) {
    this.gradModeDuringBackward = createGraph;
    let resolve!: (v: (Tensor | null)[]) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<(Tensor | null)[]>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => {});
    this.completion = { promise, resolve, reject };
  }

  /** Settles when the pass completes: the captured grads, or the first error. */
  get future(): Promise<(Tensor | null)[]> {
    return this.completion.promise;
  }

  completed(): boolean {
    return this.outstandingTasks <= 0 || (this.exitOnError && this.hasError);
  }

  /** First error wins (PyTorch's set_exception). */
  setError(e: unknown): void {
    if (this.hasError) return;
    this.hasError = true;
    this.error = e;
  }

  markAsCompleted(): void {
    if (this.futureCompleted) return;
    this.futureCompleted = true;
    if (this.hasError) this.completion.reject(this.error);
    else this.completion.resolve(this.capturedVars);
  }

  /** The buffer a node accumulates its incoming gradients in until it is ready. */
  bufferFor(node: Node): InputBuffer {
    let b = this.notReady.get(node);
    if (!b) {
      b = new InputBuffer(node.numInputs);
      this.notReady.set(node, b);
    }
    return b;
  }
}
