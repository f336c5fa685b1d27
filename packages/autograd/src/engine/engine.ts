import { platform } from '#platform';
import { CPU, type Device } from '@wiregrad/tensor';
import { isAnomalyEnabled } from '../anomalyMode.js';
import { AutogradError } from '../errors.js';
import { isGradEnabled, setGradEnabled } from '../gradMode.js';
import { computeDependencies, computeMinTopologicalNr, initToExecute } from './dependencies.js';
import type { Edge } from './edge.js';
import { evaluateFunction } from './evaluateFunction.js';
import { GraphRoot } from './graphRoot.js';
import { GraphTask } from './graphTask.js';
import { InputBuffer } from './inputBuffer.js';
import { Lane, MAX_DEPTH } from './lane.js';
import type { Grads, Node } from './node.js';
import { NodeTask } from './nodeTask.js';
import { ReadyQueue } from './readyQueue.js';
import { asyncGraphTask, currentGraphTask, popGraphTask, pushGraphTask } from './threadState.js';
import { validateOutputs } from './validateOutputs.js';
import { printStack } from './anomalyMetadata.js';

/** How Engine.execute runs a pass (PyTorch's Engine::execute arguments, named). */
export interface ExecuteOptions {
  /** keep the saved tensors after the pass (retainGraph); default false */
  keepGraph?: boolean;
  /** record the pass as a graph of its own; default false */
  createGraph?: boolean;
  /** accumulate into the leaves' `.grad` (backward) rather than only capture (grad()); default true */
  accumulateGrad?: boolean;
  /** run only what reaches these edges; grad() captures their gradients; default none (everything) */
  outputs?: Edge[];
}

/** A prepared backward pass: its GraphTask, the node to start from and that node's gradients. */
export interface PreparedTask {
  task: GraphTask;
  root: Node;
  buffer: InputBuffer;
}

/**
 * PyTorch's Engine (engine.cpp), one per isolate: see Note [Device lanes], Note [Reentrant
 * backward] and Note [Driving a pass].
 */
export class Engine {
  private readonly lanes = new Map<Device, Lane>();
  /** PyTorch's current_depth: executions nested on this stack */
  private currentDepth = 0;
  /** hand-offs to a fresh stack after MAX_DEPTH nested levels (observable in tests) */
  poolHandOffs = 0;

  /** The lane of a non-cpu device, created on first use and shared by every GraphTask. */
  lane(device: Device): Lane {
    let lane = this.lanes.get(device);
    if (!lane) this.lanes.set(device, (lane = new Lane(device)));
    return lane;
  }

  /** PyTorch's ready_queue: the task's own cpu queue for cpu gradients, else the device's lane. */
  readyQueue(cpuQueue: ReadyQueue, device: Device): ReadyQueue {
    return device.type === 'cpu' ? cpuQueue : this.lane(device).queue;
  }

  /**
   * PyTorch's Engine::execute, synchronously: returns the captured gradients (grad()).
   * `outputs` non-empty restricts execution (grad() / backward(inputs=)).
   */
  execute(roots: Edge[], inputs: Grads, opts: ExecuteOptions = {}): Grads {
    const prepared = this.prepare(roots, inputs, opts);
    this.executeWithGraphTask(prepared);
    const { task } = prepared;
    this.runReentrantAware(task);
    if (task.hasError) throw task.error;
    return task.capturedVars;
  }

  /** The same pass driven asynchronously through the lanes (Note [Device lanes]); nodes may await. */
  async executeAsync(roots: Edge[], inputs: Grads, opts: ExecuteOptions = {}): Promise<Grads> {
    const prepared = this.prepare(roots, inputs, opts);
    const { task } = prepared;
    if (task.reentrantDepth > 0 && task.reentrantDepth % MAX_DEPTH === 0) {
      // See Note [Reentrant backward]: every MAX_DEPTH nested levels, go on from a fresh stack
      this.poolHandOffs++;
      await platform.nextMacrotask();
    }
    this.executeWithGraphTask(prepared);
    for (const lane of this.lanes.values()) lane.start((nt) => this.runOnLane(lane, nt));
    while (!task.futureCompleted) {
      const nt = task.cpuReadyQueue.pop();
      if (nt) await this.processTask(nt, true);
      else await task.cpuReadyQueue.nextPush();
    }
    return task.futureResult;
  }

  /** Builds the GraphTask: root validation, dependencies, exec info (steps 1–5 of PyTorch's execute). */
  prepare(
    roots: Edge[],
    inputs: Grads,
    { keepGraph = false, createGraph = false, accumulateGrad = true, outputs = [] }: ExecuteOptions,
  ): PreparedTask {
    const seeds = validateOutputs(roots, inputs, '');
    if (!accumulateGrad && outputs.length === 0)
      throw new AutogradError('INVALID_ARGUMENT', 'grad requires non-empty inputs.');
    const parent = currentGraphTask();
    const depth = parent ? parent.reentrantDepth + 1 : 0;
    // a reentrant backward shares its caller's cpu queue, like PyTorch's thread-local queue
    const queue = parent ? parent.cpuReadyQueue : new ReadyQueue();
    const task = new GraphTask({ keepGraph, createGraph, reentrantDepth: depth, cpuReadyQueue: queue });
    const single = roots.length === 1 && roots[0]!.node !== null;
    const root = single ? roots[0]!.node! : new GraphRoot(roots, seeds);
    const minTopo = computeMinTopologicalNr(outputs);
    computeDependencies(root, task, minTopo);
    if (outputs.length > 0) initToExecute(root, task, outputs, accumulateGrad, minTopo);
    const buffer = new InputBuffer(single ? root.numInputs : 0);
    if (single) buffer.add(roots[0]!.inputNr, seeds[0] ?? null);
    return { task, root, buffer };
  }

  /**
   * Queues `root` with its gradients on the task: the first half of PyTorch's
   * execute_with_graph_task (the caller, the owner, then drives the task).
   */
  private executeWithGraphTask({ task, root, buffer }: PreparedTask): void {
    task.owner ??= CPU;
    task.outstandingTasks++;
    this.readyQueue(task.cpuReadyQueue, buffer.device()).push(new NodeTask(task, root, buffer));
  }

  /**
   * Note [Reentrant backward]
   * A backward called from inside a node's apply nests: it runs its own GraphTask, sharing
   * the caller's cpu queue (whose pop order favours the deeper task), with reentrantDepth one
   * more than its parent. PyTorch nests on the same thread up to MAX_DEPTH = 60, then hands
   * the task to a pool thread with a fresh stack that reuses the parent's queue. Here:
   * - backwardAsync() (nodes may await, e.g. `await backwardAsync(...)` inside apply): every
   *   MAX_DEPTH levels the nested pass continues after a setImmediate, on a fresh stack, with
   *   the parent's queue; any depth works (`poolHandOffs` counts the hand-offs).
   * - backward() is synchronous: its caller needs the result before apply returns and JS
   *   cannot block on another stack, so past MAX_DEPTH the pool lane's loop runs in place
   *   (depth counter reset, queue reused, `poolHandOffs` counted). Synchronous reentrancy is
   *   bounded by V8's stack (about 500 nested levels); the graph itself is never walked
   *   recursively, so deep graphs are not.
   */
  private runReentrantAware(task: GraphTask): void {
    const handOff = this.currentDepth >= MAX_DEPTH;
    const saved = this.currentDepth;
    if (handOff) this.poolHandOffs++;
    this.currentDepth = handOff ? 1 : saved + 1;
    try {
      this.threadMain(task);
    } finally {
      this.currentDepth = saved;
    }
  }

  /** PyTorch's thread_main for a caller: pop (cpu queue first, then the lanes) and evaluate until `task` completes. */
  threadMain(task: GraphTask): void {
    while (!task.futureCompleted) {
      const nt = task.cpuReadyQueue.pop() ?? this.popLaneTask();
      if (!nt) {
        // only a node left pending (which a synchronous pass refuses) could leave work unfinished
        task.setError(new AutogradError('INVALID_STATE', 'could not compute gradients for some functions'));
        break;
      }
      this.processTask(nt);
    }
  }

  /** Runs the nodes queued on `task` on this caller until none is left (stopping at the first error), without completing it. */
  private runUntilReadyQueueEmpty(task: GraphTask): void {
    for (
      let nt = task.cpuReadyQueue.pop() ?? this.popLaneTask();
      nt;
      nt = task.cpuReadyQueue.pop() ?? this.popLaneTask()
    ) {
      this.processTask(nt);
      if (task.hasError) break;
    }
  }

  /**
   * PyTorch's DistEngine::execute_graph_task_until_ready_queue_empty: queues `root` with
   * `buffer` on `task`, runs what becomes ready until the queue is empty (stopping at the
   * first error) and completes the task if nothing is outstanding. See Note [Driving a pass].
   */
  executeGraphTaskUntilReadyQueueEmpty(task: GraphTask, root: Node, buffer: InputBuffer): void {
    this.executeWithGraphTask({ task, root, buffer });
    this.runUntilReadyQueueEmpty(task);
    if (task.completed()) task.markAsCompletedAndRunPostProcessing();
  }

  /** Completes `task` (leftovers check, final callbacks, future) unless it already is. */
  finish(task: GraphTask): void {
    task.markAsCompletedAndRunPostProcessing();
  }

  private popLaneTask(): NodeTask | undefined {
    for (const lane of this.lanes.values()) {
      const nt = lane.queue.pop();
      if (nt) return nt;
    }
    return undefined;
  }

  /** One task on a lane's loop; if it completed a task owned elsewhere, wake the owner (Note [Device lanes]). */
  private async runOnLane(lane: Lane, nt: NodeTask): Promise<void> {
    const gt = nt.graphTask;
    const wasCompleted = gt?.futureCompleted ?? true;
    await this.processTask(nt, true);
    if (gt && !wasCompleted && gt.futureCompleted && gt.owner !== lane.device) {
      this.readyQueue(gt.cpuReadyQueue, gt.owner ?? CPU).push(new NodeTask(gt, null, null));
    }
  }

  /**
   * Evaluates one NodeTask and does PyTorch's outstanding-task bookkeeping. With `allowAsync`
   * (backwardAsync) a node may return a Promise, awaited before its task counts as done; a
   * synchronous backward() cannot wait, so there it is an error.
   */
  processTask(nt: NodeTask, allowAsync = false): void | Promise<void> {
    const gt = nt.graphTask;
    if (!gt) return;
    let pending: Promise<void> | undefined;
    if (nt.fn && !gt.hasError) {
      const fn = nt.fn;
      const prevMode = isGradEnabled();
      pushGraphTask(gt, fn);
      setGradEnabled(gt.gradModeDuringBackward);
      try {
        const r = allowAsync
          ? asyncGraphTask.run(gt, () => evaluateFunction(this, gt, fn, nt.inputs!))
          : evaluateFunction(this, gt, fn, nt.inputs!);
        if (r) {
          if (!allowAsync) {
            r.catch(() => {});
            throw new AutogradError(
              'INVALID_STATE',
              `${fn.name()}.apply returned a Promise; nodes that await need backwardAsync()`,
            );
          }
          pending = r.catch((e) => failed(gt, fn, e));
        }
      } catch (e) {
        failed(gt, fn, e);
      } finally {
        setGradEnabled(prevMode);
        popGraphTask();
      }
    }
    if (pending) return pending.then(() => taskDone(nt, gt));
    taskDone(nt, gt);
  }
}

/** The end of PyTorch's thread_main iteration: one task fewer; complete the GraphTask when none is left. */
function taskDone(nt: NodeTask, gt: GraphTask): void {
  if (nt.fn) gt.outstandingTasks--;
  if (gt.completed()) gt.markAsCompletedAndRunPostProcessing();
}

/** PyTorch's set_exception: the first error of the pass, after the failing node's forward trace under anomaly mode (Note [Anomaly metadata]). */
function failed(gt: GraphTask, fn: Node, e: unknown): void {
  if (!gt.hasError && isAnomalyEnabled()) printStack(fn);
  gt.setError(e);
}

let engine: Engine | null = null;

/** The engine of this isolate (PyTorch's Engine::get_default_engine). */
export function getEngine(): Engine {
  return (engine ??= new Engine());
}
