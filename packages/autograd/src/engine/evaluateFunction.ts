import type { Tensor } from '@wiregrad/tensor';
import { AutogradError } from '../errors.js';
import { callFunction, callTensorPreHooks } from './callFunction.js';
import type { Engine } from './engine.js';
import type { GraphTask } from './graphTask.js';
import { InputBuffer } from './inputBuffer.js';
import type { Grads, Node } from './node.js';
import { NodeTask } from './nodeTask.js';
import { OwnedGrads, ownedGradsOf } from './ownedGrads.js';

/**
 * PyTorch's evaluate_function, step for step: fill grad()'s captures (after the tensor
 * pre-hooks when the node itself will not run), return unless the node is needed, call it
 * (pre-hooks, apply, validate_outputs, post-hooks, release, NaN check: see callFunction),
 * then hand each output to its next node. Returns a Promise only while an async node's
 * apply is pending (backwardAsync).
 */
export function evaluateFunction(engine: Engine, task: GraphTask, fn: Node, inputs: InputBuffer): void | Promise<void> {
  let grads = inputs.buffer;
  let hooksDone = false;
  if (task.execInfo.size > 0) {
    const info = task.execInfo.get(fn);
    if (!info?.needed) {
      // tensor pre-hooks run whenever the engine reaches a node, executed or not (NOTE [Hooks ordering])
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
  const owned = ownedGradsOf(task);
  if (owned === null) {
    const outputs = callFunction(task, fn, grads, hooksDone);
    if (outputs instanceof Promise) return outputs.then((o) => propagate(engine, task, fn, o, null));
    propagate(engine, task, fn, outputs, null);
    return;
  }
  const { result: outputs, created } = OwnedGrads.collect(fn, () => callFunction(task, fn, grads, hooksDone));
  if (outputs instanceof Promise) return outputs.then((o) => propagateOwned(engine, task, fn, inputs, o, null, owned));
  propagateOwned(engine, task, fn, inputs, outputs, created, owned);
}

/** propagate, with the engine's release of what it owns (Note [Gradients the engine owns]). */
function propagateOwned(
  engine: Engine,
  task: GraphTask,
  fn: Node,
  inputs: InputBuffer,
  outputs: Grads,
  created: Tensor[] | null,
  owned: OwnedGrads,
): void {
  if (created) owned.adopt(created, outputs);
  propagate(engine, task, fn, outputs, owned);
  if (created) owned.settle(outputs);
  const consumed = OwnedGrads.knowsUse(fn);
  for (const g of inputs.buffer) {
    if (!g) continue;
    if (consumed) owned.leave(g);
    else owned.escape(g);
  }
}

/**
 * The end of evaluate_function: each next node loses one dependency and gets the gradient
 * added to its InputBuffer (kept in `notReady` until its last dependency arrives); a node
 * that became ready is pushed on the queue of its buffer's device. Nodes outside exec info
 * (pruned by grad() / backward(inputs=)) only lose the dependency.
 */
function propagate(engine: Engine, task: GraphTask, fn: Node, outputs: Grads, owned: OwnedGrads | null): void {
  if (outputs.length === 0) return;
  const edges = fn.nextEdges;
  for (let i = 0; i < edges.length; i++) {
    const edge = edges[i]!;
    const next = edge.node;
    if (!next) continue;
    const deps = task.dependencies.get(next);
    if (deps === undefined) throw new AutogradError('INVALID_STATE', `dependency not found for ${next.name()}`);
    const ready = deps <= 1;
    if (ready) task.dependencies.delete(next);
    else task.dependencies.set(next, deps - 1);
    let buffer = task.notReady.get(next);
    if (!buffer) {
      if (task.execInfo.size > 0 && !task.execInfo.get(next)?.shouldExecute()) continue;
      buffer = new InputBuffer(next.numInputs);
      if (!ready) task.notReady.set(next, buffer);
    } else if (ready) {
      task.notReady.delete(next);
    }
    buffer.add(edge.inputNr, outputs[i] ?? null, owned);
    if (ready) {
      task.outstandingTasks++;
      engine.readyQueue(task.cpuReadyQueue, buffer.device()).push(new NodeTask(task, next, buffer));
    }
  }
}
