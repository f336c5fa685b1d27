import { type Tensor, add_, clone, detach } from '@wiregrad/tensor';
import { AutogradError } from '../errors.js';
import { isGradEnabled, noGrad } from '../gradMode.js';
import { autogradMeta } from './autogradMeta.js';
import { MAX_SEQUENCE_NR, Node, type Grads } from './node.js';

/**
 * PyTorch's AccumulateGrad (functions/accumulate_grad.{h,cpp}): the node behind a leaf that
 * requires grad. Its sequenceNr is the maximum so it runs as soon as it is ready, and its
 * topologicalNr 0. It adds the incoming gradient into `.grad`: the first one is copied
 * (PyTorch steals it when no one else holds it; JS cannot know, so it always copies), later
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

  apply([grad]: Grads): Grads {
    if (!grad) return [];
    const v = this.variable;
    if (v.gradFn) throw new AutogradError('INVALID_STATE', 'leaf variable has been moved into the graph interior');
    if (!v.requiresGrad) return [];
    if (v.grad === null) {
      v.grad = isGradEnabled() ? clone(grad) : noGrad(() => clone(detach(grad)));
    } else if (isGradEnabled()) {
      v.grad = v.grad.add(grad);
    } else {
      const g = v.grad;
      noGrad(() => add_(g, grad));
    }
    for (const hook of autogradMeta(v).postAccumulateHooks.values()) hook(v);
    return [];
  }
}
