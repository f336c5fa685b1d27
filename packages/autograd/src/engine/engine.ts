import { setGradEnabled, isGradEnabled } from '../gradMode.js';
import { isAnomalyEnabled } from '../anomalyMode.js';
import { AutogradError } from '../errors.js';
import { callFunction, callTensorPreHooks } from './callFunction.js';
import { computeDependencies, computeMinTopologicalNr, initToExecute } from './dependencies.js';
import type { Edge } from './edge.js';
import { GraphRoot } from './graphRoot.js';
import { GraphTask } from './graphTask.js';
import { InputBuffer } from './inputBuffer.js';
import { Lane, MAX_DEPTH } from './lane.js';
import type { Grads, Node } from './node.js';
import { NodeTask } from './nodeTask.js';
import { ReadyQueue } from './readyQueue.js';
import { asyncGraphTask, currentGraphTask, popGraphTask, pushGraphTask } from './threadState.js';
import { validateOutputs } from './validateOutputs.js';
import type { Device } from '@wiregrad/tensor';

/** A prepared backward pass: its GraphTask, the node to start from and that node's gradients. */
export interface PreparedTask {
  task: GraphTask;
  root: Node;
  buffer: InputBuffer;
}

/**
 * PyTorch's Engine (engine.cpp), one per isolate: see Note [Device lanes] and
 * Note [Reentrant backward].
 */
export class Engine {
  private readonly lanes = new Map<Device, Lane>();
  /** PyTorch's per-worker current_depth: nested executions on this stack */
  private currentDepth = 0;
  /** hand-offs to a pool lane after MAX_DEPTH (observable in tests) */
  poolHandOffs = 0;

  lane(device: Device): Lane {
    let lane = this.lanes.get(device);
    if (!lane) this.lanes.set(device, (lane = new Lane(device)));
    return lane;
  }

  readyQueue(cpuQueue: ReadyQueue, device: Device): ReadyQueue {
    return device.type === 'cpu' ? cpuQueue : this.lane(device).queue;
  }

  /**
   * PyTorch's Engine::execute. Returns the captured gradients (grad()), runs synchronously.
   * `outputs` non-empty restricts execution (grad() / backward(inputs=)).
   */
  execute(roots: Edge[], inputs: Grads, keepGraph: boolean, createGraph: boolean, accumulateGrad: boolean, outputs: Edge[] = []): Grads {
    const prepared = this.prepare(roots, inputs, keepGraph, createGraph, accumulateGrad, outputs);
    this.executeWithGraphTask(prepared);
    const { task } = prepared;
    this.runReentrantAware(task);
    if (task.hasError) throw task.error;
    return task.capturedVars;
  }

  /** The same pass driven asynchronously through the lanes (Note [Device lanes]). */
  async executeAsync(roots: Edge[], inputs: Grads, keepGraph: boolean, createGraph: boolean, accumulateGrad: boolean, outputs: Edge[] = []): Promise<Grads> {
    const prepared = this.prepare(roots, inputs, keepGraph, createGraph, accumulateGrad, outputs);
    const { task } = prepared;
    if (task.reentrantDepth > 0 && task.reentrantDepth % MAX_DEPTH === 0) {
      // See Note [Reentrant backward]: past MAX_DEPTH nested levels, go on from a fresh stack
      this.poolHandOffs++;
      await new Promise((r) => setImmediate(r));
    }
    this.executeWithGraphTask(prepared);
    for (const lane of this.lanes.values()) this.startLane(lane);
    while (!task.futureCompleted) {
      const nt = task.cpuReadyQueue.pop();
      if (nt) await this.processTask(nt, true);
      else if (!task.completed()) await task.cpuReadyQueue.nextPush();
      else this.finish(task);
    }
    return task.future;
  }

  /** Builds the GraphTask: root validation, dependencies, exec info (steps 1–5 of execute). */
  prepare(roots: Edge[], inputs: Grads, keepGraph: boolean, createGraph: boolean, accumulateGrad: boolean, outputs: Edge[], exitOnError = false): PreparedTask {
    const seeds = validateOutputs(roots, inputs, '');
    const parent = currentGraphTask();
    const depth = parent ? parent.reentrantDepth + 1 : 0;
    // a reentrant backward shares its caller's cpu queue, like PyTorch's thread-local queue
    const queue = parent ? parent.cpuReadyQueue : new ReadyQueue();
    const task = new GraphTask(keepGraph, createGraph, depth, queue, null, exitOnError);
    const single = roots.length === 1 && roots[0]!.node !== null;
    const root = single ? roots[0]!.node! : new GraphRoot(roots, seeds);
    const minTopo = computeMinTopologicalNr(outputs);
    computeDependencies(root, task, minTopo);
    if (outputs.length > 0) initToExecute(root, task, outputs, accumulateGrad, minTopo);
    const buffer = single ? new InputBuffer(root.numInputs) : new InputBuffer(0);
    if (single) buffer.add(roots[0]!.inputNr, seeds[0] ?? null);
    return { task, root, buffer };
  }

  /** Queues `root` with its gradients on the task (PyTorch's execute_with_graph_task). */
  executeWithGraphTask({ task, root, buffer }: PreparedTask): void {
    task.outstandingTasks++;
    this.readyQueue(task.cpuReadyQueue, buffer.device()).push(new NodeTask(task, root, buffer));
  }

  /**
   * Note [Reentrant backward]
   * A backward called from inside a node's apply nests: it runs its own GraphTask, sharing
   * the caller's cpu queue (whose pop order favours the deeper task), with reentrantDepth one
   * more than its parent. PyTorch nests on the same thread up to MAX_DEPTH = 60, then hands
   * the task to a pool thread with a fresh stack. Here:
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
    if (this.currentDepth >= MAX_DEPTH) {
      this.poolHandOffs++;
      const saved = this.currentDepth;
      this.currentDepth = 0;
      try {
        this.threadMain(task);
      } finally {
        this.currentDepth = saved;
      }
      return;
    }
    this.currentDepth++;
    try {
      this.threadMain(task);
    } finally {
      this.currentDepth--;
    }
  }

  /** PyTorch's thread_main for the caller: pop and evaluate until `task` completes. */
  threadMain(task: GraphTask): void {
    while (!task.futureCompleted) {
      if (task.completed()) {
        this.finish(task);
        break;
      }
      const nt = task.cpuReadyQueue.pop() ?? this.popLaneTask();
      if (!nt) {
        task.setError(new AutogradError('INVALID_STATE', 'could not compute gradients for some functions'));
        this.finish(task);
        break;
      }
      this.processTask(nt);
    }
  }

  /** Runs the nodes queued on `task` until its queue is empty, without completing it (for the distributed engine). */
  runUntilReadyQueueEmpty(task: GraphTask): void {
    for (let nt = task.cpuReadyQueue.pop() ?? this.popLaneTask(); nt; nt = task.cpuReadyQueue.pop() ?? this.popLaneTask()) {
      this.processTask(nt);
    }
  }

  private popLaneTask(): NodeTask | undefined {
    for (const lane of this.lanes.values()) {
      const nt = lane.queue.pop();
      if (nt) return nt;
    }
    return undefined;
  }

  private startLane(lane: Lane): void {
    if (lane.started) return;
    lane.started = true;
    const loop = async (): Promise<void> => {
      for (;;) {
        const nt = lane.queue.pop();
        if (!nt) {
          await lane.queue.nextPush();
          continue;
        }
        const gt = nt.graphTask;
        await this.processTask(nt, true);
        // wake the owner: its cpu loop may be waiting for this lane's result
        if (gt) gt.cpuReadyQueue.push(new NodeTask(gt, null, null));
        await new Promise((r) => setImmediate(r));
      }
    };
    void loop();
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
      pushGraphTask(gt);
      setGradEnabled(gt.gradModeDuringBackward);
      try {
        const r = allowAsync ? asyncGraphTask.run(gt, () => this.evaluateFunction(gt, fn, nt.inputs!)) : this.evaluateFunction(gt, fn, nt.inputs!);
        if (r) {
          if (!allowAsync) {
            r.catch(() => {});
            throw new AutogradError('INVALID_STATE', `${fn.name()}.apply returned a Promise; nodes that await need backwardAsync()`);
          }
          pending = r.catch((e) => gt.setError(annotate(e, fn)));
        }
      } catch (e) {
        gt.setError(annotate(e, fn));
      } finally {
        setGradEnabled(prevMode);
        popGraphTask();
      }
    }
    if (pending) return pending.then(() => this.taskDone(nt, gt));
    this.taskDone(nt, gt);
  }

  private taskDone(nt: NodeTask, gt: GraphTask): void {
    if (nt.fn) gt.outstandingTasks--;
    if (gt.completed() && !gt.futureCompleted && gt.outstandingTasks <= 0) this.finish(gt);
    else if (gt.exitOnError && gt.hasError && !gt.futureCompleted) this.finish(gt);
  }

  /** PyTorch's evaluate_function, step for step (a Promise only when an async node's apply is pending). */
  evaluateFunction(task: GraphTask, fn: Node, inputs: InputBuffer): void | Promise<void> {
    let grads = inputs.buffer;
    let hooksDone = false;
    if (task.execInfo.size > 0) {
      const info = task.execInfo.get(fn);
      if (!info?.needed) {
        grads = callTensorPreHooks(fn, grads);
        hooksDone = true;
      }
      for (const capture of info?.captures ?? []) {
        let captured = grads[capture.inputIdx] ?? null;
        for (const hook of capture.hooks) captured = hook(captured);
        task.capturedVars[capture.outputIdx] = captured;
      }
      if (!info?.needed) return;
    }
    const outputs = callFunction(task, fn, grads, hooksDone);
    if (outputs instanceof Promise) return outputs.then((o) => this.propagate(task, fn, o));
    this.propagate(task, fn, outputs);
  }

  /** The end of evaluate_function: dependencies, not-ready buffers, and pushing what became ready. */
  private propagate(task: GraphTask, fn: Node, outputs: Grads): void {
    if (outputs.length === 0) return;
    fn.nextEdges.forEach((edge, i) => {
      const next = edge.node;
      if (!next) return;
      const deps = (task.dependencies.get(next) ?? 0) - 1;
      if (deps <= 0) task.dependencies.delete(next);
      else task.dependencies.set(next, deps);
      const ready = deps <= 0;
      let buffer = task.notReady.get(next);
      if (!buffer) {
        if (task.execInfo.size > 0 && !task.execInfo.get(next)?.shouldExecute()) return;
        buffer = new InputBuffer(next.numInputs);
        if (!ready) task.notReady.set(next, buffer);
      } else if (ready) {
        task.notReady.delete(next);
      }
      buffer.add(edge.inputNr, outputs[i] ?? null);
      if (ready) {
        task.outstandingTasks++;
        this.readyQueue(task.cpuReadyQueue, buffer.device()).push(new NodeTask(task, next, buffer));
      }
    });
  }

  /** PyTorch's mark_as_completed_and_run_post_processing: leftovers check, final callbacks, future. */
  finish(task: GraphTask): void {
    if (task.futureCompleted) return;
    if (!task.hasError) {
      pushGraphTask(task);
      try {
        if (task.notReady.size > 0) {
          throw new AutogradError('INVALID_STATE', 'could not compute gradients for some functions');
        }
        for (let i = 0; i < task.finalCallbacks.length; i++) task.finalCallbacks[i]!();
      } catch (e) {
        task.setError(e);
      } finally {
        popGraphTask();
      }
    }
    task.markAsCompleted();
  }
}

function annotate(e: unknown, fn: Node): unknown {
  if (isAnomalyEnabled() && e instanceof Error && fn.forwardTrace) {
    e.message += `\n\nTraceback of forward call that caused the error:\n${fn.forwardTrace}`;
  }
  return e;
}

let engine: Engine | null = null;

/** The engine of this isolate (PyTorch's Engine::get_default_engine). */
export function getEngine(): Engine {
  return (engine ??= new Engine());
}
