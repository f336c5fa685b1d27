import type { Tensor } from '@wiregrad/tensor';
import { AutogradError } from '../errors.js';
import { AccumulateGrad } from './accumulateGrad.js';
import { computeDependencies, initToExecute } from './dependencies.js';
import { Edge } from './edge.js';
import { getEngine } from './engine.js';
import { GraphRoot } from './graphRoot.js';
import { GraphTask } from './graphTask.js';
import { InputBuffer } from './inputBuffer.js';
import type { Grads, Node } from './node.js';

/** What a driven pass covers and where its results go (see Note [Driving a pass]). */
export interface PassOptions {
  /**
   * The nodes the pass may run from: a root (a GraphRoot of the output tensors, or one node)
   * and the nodes whose gradients arrive later (dist-autograd's send functions).
   */
  starts: readonly Node[];
  /** keep the saved tensors after the pass (retainGraph); default false */
  keepGraph?: boolean;
  /** nodes besides the leaves that must run when the pass reaches them (dist-autograd's RecvRpcBackward); default none */
  isOutput?: (node: Node) => boolean;
  /** receives every leaf's gradient in place of `.grad` (which the pass then leaves alone); default: into `.grad` */
  onLeafGrad?: (variable: Tensor, grad: Tensor) => void;
  /** runs once when the pass completes without an error, before the callbacks its nodes queued (queueCallback) */
  onFinal?: () => void;
}

/**
 * Note [Driving a pass]
 * PyTorch's DistEngine drives a GraphTask from outside the engine: it computes the task's
 * dependencies from the local root and every send function the pass reaches, redirects leaf
 * gradients into the context, runs the task once per arrival of gradients, holds it open
 * between runs, and completes it when the pass is over everywhere. `openPass` is that contract
 * as one typed object, for @wiregrad/dist-autograd (and a DDP reducer); the GraphTask, its
 * counters and exec info stay inside the engine.
 * - `openPass({ starts, isOutput, onLeafGrad, onFinal })` computes the dependencies from all
 *   `starts` at once (a GraphRoot over them) and restricts the pass to what reaches an output:
 *   the leaves (AccumulateGrad) and the nodes `isOutput` picks. With `onLeafGrad` each leaf's
 *   gradient goes there instead of into `.grad`. With no output in the graph every reachable
 *   node runs.
 * - `run(node, grads)` queues `node` with `grads` on its inputs and runs what becomes ready on
 *   this caller until nothing is (PyTorch's execute_graph_task_until_ready_queue_empty); call it
 *   again when more gradients arrive. A failed run fails the pass at once (exitOnError): later
 *   runs do nothing, `throwIfFailed()` throws the first error.
 * - the pass completes (leftovers check, `onFinal`, the callbacks nodes queued) when nothing is
 *   queued and no hold is left: `hold()` keeps it open across runs, `release()` drops one hold
 *   and completes it when it was the last; `close()` drops every hold and completes it now
 *   (a pass that is over, or aborted); `fail(error)` ends it with that error and no final
 *   callbacks (a pass given up from outside). Running a completed pass throws unless it failed.
 */
export class DrivenPass {
  private readonly task: GraphTask;
  private holds = 0;

  constructor({ starts, keepGraph = false, isOutput = () => false, onLeafGrad, onFinal }: PassOptions) {
    this.task = new GraphTask({ keepGraph, exitOnError: true });
    const task = this.task;
    for (const s of starts) computeDependencies(s, task, 0);
    const outputs: Edge[] = [];
    for (const n of task.nodesInGraph) if (n instanceof AccumulateGrad || isOutput(n)) outputs.push(new Edge(n, 0));
    if (outputs.length > 0) {
      const root = new GraphRoot(
        starts.map((s) => new Edge(s, 0)),
        [],
      );
      // with a leaf callback, leaves are captured (their gradient handed over, AccumulateGrad never runs)
      initToExecute(root, task, outputs, onLeafGrad === undefined, 0);
      if (onLeafGrad) {
        for (const { node } of outputs) {
          const info = task.execInfo.get(node!)!;
          if (!(node instanceof AccumulateGrad)) {
            info.needed = true;
            continue;
          }
          const variable = node.variable;
          for (const c of info.captures ?? []) {
            c.hooks.push((g) => {
              if (g) onLeafGrad(variable, g);
              return g;
            });
          }
        }
      }
    }
    if (onFinal) task.finalCallbacks.push(onFinal);
  }

  /** keep the saved tensors after the pass (retainGraph) */
  get keepGraph(): boolean {
    return this.task.keepGraph;
  }

  /** Every node the pass reaches from its starts (PyTorch's nodes_in_graph). */
  get nodes(): ReadonlySet<Node> {
    return this.task.nodesInGraph;
  }

  /** Completed: over (close(), the last release()) or failed. */
  get completed(): boolean {
    return this.task.futureCompleted;
  }

  get failed(): boolean {
    return this.task.hasError;
  }

  /** Throws the pass's first error, if it failed. */
  throwIfFailed(): void {
    if (this.task.hasError) throw this.task.error;
  }

  /** Runs from `node`, with `grads` on its inputs, until nothing is ready; see Note [Driving a pass]. */
  run(node: Node, grads: Grads = []): void {
    if (this.task.hasError) return;
    if (this.task.futureCompleted)
      throw new AutogradError('INVALID_STATE', `run(${node.name()}) on a backward pass that completed`);
    getEngine().executeGraphTaskUntilReadyQueueEmpty(this.task, node, InputBuffer.of(grads));
  }

  /** Keeps the pass open until a matching release() (or close()). */
  hold(): void {
    if (this.task.futureCompleted) throw new AutogradError('INVALID_STATE', 'hold() on a backward pass that completed');
    this.holds++;
    this.task.outstandingTasks++;
  }

  /** Drops one hold; completes the pass when it was the last and nothing is queued. */
  release(): void {
    if (this.holds === 0) throw new AutogradError('INVALID_STATE', 'release() without a hold on the backward pass');
    this.holds--;
    this.task.outstandingTasks--;
    if (this.task.completed()) this.task.markAsCompletedAndRunPostProcessing();
  }

  /** Fails the pass with `error` now, unless it completed: its final callbacks never run (a pass given up from outside). */
  fail(error: unknown): void {
    if (this.task.futureCompleted) return;
    this.task.outstandingTasks -= this.holds;
    this.holds = 0;
    this.task.setError(error);
  }

  /** Drops every hold and completes the pass now (nothing happens if it already completed). */
  close(): void {
    this.task.outstandingTasks -= this.holds;
    this.holds = 0;
    getEngine().finish(this.task);
  }
}

/** Opens a pass its caller drives run by run (Note [Driving a pass]). */
export function openPass(options: PassOptions): DrivenPass {
  return new DrivenPass(options);
}
