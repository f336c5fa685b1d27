import { type Tensor, add_, detach, clone } from '@wiregrad/tensor';
import { isGradEnabled, noGrad } from '../gradMode.js';
import { autogradMeta } from './autogradMeta.js';
import { MAX_SEQUENCE_NR, Node, type Grads } from './node.js';

/**
 * PyTorch's AccumulateGrad: the node behind a leaf that requires grad. It has sequenceNr =
 * max so it runs as soon as it is ready, and adds the incoming gradient into `.grad`:
 * in place when no graph is being built, out of place (keeping the graph) under createGraph.
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
    if (v.grad === null) {
      v.grad = isGradEnabled() ? grad : noGrad(() => clone(detach(grad)));
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
