import type { Tensor } from '@wiregrad/tensor';
import { setTensorScope } from '@wiregrad/tensor/internal';
import { isAnomalyCheckNanEnabled } from '../anomalyMode.js';
import { AutogradError } from '../errors.js';
import { noGrad } from '../gradMode.js';
import type { GraphTask } from './graphTask.js';
import type { Grads, Node } from './node.js';
import { markHookMade } from './ownedGrads.js';
import { validateOutputs } from './validateOutputs.js';

/**
 * Tensor pre-hooks, then retains-grad hooks, on the gradients arriving at `fn` (PyTorch's
 * call_tensor_pre_hooks). A tensor hook runs even when its slot got no gradient (a sibling
 * output of a multi-output node was differentiated): it gets null, PyTorch's None (See
 * Note [Tensor hooks]); retainGrad's hook only sees gradients.
 */
export function callTensorPreHooks(fn: Node, inputs: Grads): Grads {
  const out = [...inputs];
  for (const [i, hooks] of fn.tensorPreHooks) {
    for (const hook of hooks) {
      const r = hook((out[i] ?? null) as Tensor);
      if (r) out[i] = r;
    }
  }
  for (const [i, hook] of fn.retainsGradHooks) {
    const g = out[i];
    if (g) hook(g);
  }
  return out;
}

/**
 * PyTorch's call_function: pre-hooks, apply, validate_outputs, post-hooks. `tensorHooksDone`
 * is true when evaluateFunction already ran the tensor pre-hooks for a capture.
 */
export function callFunction(
  task: GraphTask,
  fn: Node,
  inputs: Grads,
  tensorHooksDone: boolean,
): Grads | Promise<Grads> {
  const preHooks = () => {
    let grads = tensorHooksDone ? inputs : callTensorPreHooks(fn, inputs);
    for (const hook of fn.preHooks) grads = hook(grads) ?? grads;
    return grads;
  };
  const grads = fn.gradUse === 'accumulate' && fn.hasHooks ? markingHookMade(preHooks) : preHooks();
  const outputs = fn.apply(grads);
  if (outputs instanceof Promise) return outputs.then((o) => finishCall(task, fn, grads, o));
  return finishCall(task, fn, grads, outputs);
}

/** Runs an AccumulateGrad's pre-hooks, marking the gradients they made (Note [Gradients a hook made]). */
function markingHookMade(run: () => Grads): Grads {
  const created: Tensor[] = [];
  const outer = setTensorScope(created);
  let grads: Grads;
  try {
    grads = run();
  } finally {
    setTensorScope(outer);
    // they stay in the enclosing tidy() scope too, as if nobody had looked
    if (outer !== null) for (const t of created) if (!t.isDisposed) outer.push(t);
  }
  const made = new Set(created);
  for (const g of grads) if (g && made.has(g)) markHookMade(g);
  return grads;
}

/** validate_outputs, post-hooks, release and the anomaly check, once apply has produced `raw`. */
function finishCall(task: GraphTask, fn: Node, grads: Grads, raw: Grads): Grads {
  let outputs = validateOutputs(fn.nextEdges, raw, `Function ${fn.name()} returned an `);
  for (const hook of fn.postHooks) outputs = hook(outputs, grads) ?? outputs;
  if (!task.keepGraph) fn.releaseVariables();
  if (isAnomalyCheckNanEnabled()) checkNaN(fn, outputs);
  return outputs;
}

function checkNaN(fn: Node, outputs: Grads): void {
  outputs.forEach((g, i) => {
    if (!g || (g.dtype !== 'float32' && g.dtype !== 'float64')) return;
    if (noGrad(() => g.ne(g).sum().item()) > 0) {
      throw new AutogradError('NAN_GRADIENT', `Function '${fn.name()}' returned nan values in its ${i}th output.`);
    }
  });
}
