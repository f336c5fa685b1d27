import { type Tensor, detach } from '@wiregrad/tensor';
import { collectNextEdges, setHistory } from './engine/gradientEdge.js';
import { type Grads, Node } from './engine/node.js';
import { AutogradError } from './errors.js';
import type { FunctionCtx } from './function.js';
import { isGradEnabled, noGrad } from './gradMode.js';

const MESSAGE = 'trying to differentiate twice a function that was marked with @once_differentiable';

/** PyTorch's DelayedError: a node that fails when the engine reaches it. */
class DelayedError extends Node {
  name(): string {
    return 'DelayedError';
  }
  apply(_grads: Grads): Grads {
    throw new AutogradError('DOUBLE_BACKWARD', MESSAGE);
  }
}

type Backward = (ctx: FunctionCtx, ...grads: (Tensor | null)[]) => Tensor | null | (Tensor | null)[];

/**
 * PyTorch's @once_differentiable for a custom Function's backward: it runs without recording
 * a graph, and when the backward itself is being differentiated (createGraph with gradients
 * that require grad) each returned gradient hangs off a DelayedError node, so a second
 * backward through it fails with PyTorch's message instead of silently giving zeros.
 *   static override backward = onceDifferentiable((ctx, g) => ...);
 */
export function onceDifferentiable<B extends Backward>(backward: B): B {
  const wrapped = (ctx: FunctionCtx, ...grads: (Tensor | null)[]) => {
    const result = noGrad(() => backward(ctx, ...grads));
    const inputs = grads.filter((g): g is Tensor => g !== null && g.requiresGrad);
    if (!isGradEnabled() || inputs.length === 0) return result;
    const node = new DelayedError();
    node.setNextEdges(collectNextEdges(inputs));
    const guard = (g: Tensor | null): Tensor | null => {
      if (g === null) return null;
      const out = detach(g);
      setHistory(out, node);
      return out;
    };
    return Array.isArray(result) ? result.map(guard) : guard(result);
  };
  return wrapped as B;
}
