import { type Tensor, add_, clone, detach } from '@wiregrad/tensor';
import { peekGrad, setUnseenGrad } from '@wiregrad/tensor/internal';
import { AutogradError } from '../errors.js';
import { isGradEnabled, noGrad } from '../gradMode.js';
import { autogradMeta } from './autogradMeta.js';
import { MAX_SEQUENCE_NR, Node, type Grads } from './node.js';
import { ownedGradsOf, takeHookMade } from './ownedGrads.js';
import { currentGraphTask } from './threadState.js';

/** PyTorch's "steal the gradient" test: a plain contiguous tensor of the leaf's kind whose storage nothing else holds. */
function canTakeOver(grad: Tensor, v: Tensor): boolean {
  const s = grad.storage;
  return (
    s.holds === 1 &&
    grad.offset === 0 &&
    s.length === grad.numel &&
    grad.isContiguous() &&
    grad.dtype === v.dtype &&
    grad.device === v.device &&
    !grad.requiresGrad
  );
}

/** A copy of `grad` outside the graph; the detached view made for it is released at once. */
function copyOf(grad: Tensor): Tensor {
  return noGrad(() => {
    const view = detach(grad);
    const copy = clone(view);
    view.dispose();
    return copy;
  });
}

/**
 * PyTorch's AccumulateGrad (functions/accumulate_grad.{h,cpp}): the node behind a leaf that
 * requires grad. Its sequenceNr is the maximum so it runs as soon as it is ready, and its
 * topologicalNr 0. It adds the incoming gradient into `.grad`: the first one is taken over
 * when the engine owns it and nothing else holds it, or a pre-hook of this node made it
 * (PyTorch steals it in the same cases, Note [Gradients the engine owns], Note [Gradients a
 * hook made]), else copied; later
 * ones are added in place, or out of place under createGraph so `.grad` keeps its graph.
 * Then the post-accumulate-grad hooks see the updated leaf.
 */
export class AccumulateGrad extends Node {
  constructor(readonly variable: Tensor) {
    super(MAX_SEQUENCE_NR);
    this.addInputMetadata(variable);
  }

  name(): string {
    return 'torch::autograd::AccumulateGrad';
  }

  override get gradUse(): 'accumulate' {
    return 'accumulate';
  }

  apply([grad]: Grads): Grads {
    if (!grad) return [];
    const v = this.variable;
    if (v.gradFn) throw new AutogradError('INVALID_STATE', 'leaf variable has been moved into the graph interior');
    if (!v.requiresGrad) return [];
    // only what the engine made goes in unseen (Note [Gradients nobody else saw] in @wiregrad/tensor)
    const g = peekGrad(v);
    if (g === null) {
      if (isGradEnabled()) setUnseenGrad(v, clone(grad));
      else if (!canTakeOver(grad, v)) setUnseenGrad(v, copyOf(grad));
      else if (takeHookMade(grad))
        v.grad = grad; // the hook that made it may keep it: seen
      else if (ownedGradsOf(currentGraphTask())?.takeOver(grad)) setUnseenGrad(v, grad);
      else setUnseenGrad(v, copyOf(grad));
    } else if (isGradEnabled()) {
      v.grad = g.add(grad);
    } else {
      noGrad(() => add_(g, grad));
    }
    const hooks = autogradMeta(v).postAccumulateHooks;
    if (hooks) for (const hook of hooks.values()) hook(v);
    return [];
  }
}
