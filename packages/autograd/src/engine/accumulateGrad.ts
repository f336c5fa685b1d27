import { type Tensor, add_, clone, detach } from '@wiregrad/tensor';
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
    if (v.grad === null) {
      if (isGradEnabled()) v.grad = clone(grad);
      else if (canTakeOver(grad, v) && (takeHookMade(grad) || ownedGradsOf(currentGraphTask())?.takeOver(grad)))
        v.grad = grad;
      else v.grad = noGrad(() => clone(detach(grad)));
    } else if (isGradEnabled()) {
      v.grad = v.grad.add(grad);
    } else {
      const g = v.grad;
      noGrad(() => add_(g, grad));
    }
    const hooks = autogradMeta(v).postAccumulateHooks;
    if (hooks) for (const hook of hooks.values()) hook(v);
    return [];
  }
}
