import { type Tensor, installAutogradMethods, clone, detach, add } from '@wiregrad/tensor';
import { backward, backwardAsync } from './backward.js';
import { autogradMeta, peekMeta } from './engine/autogradMeta.js';
import { gradAccumulator } from './engine/gradientEdge.js';
import type { Node, RemovableHandle } from './engine/node.js';
import { AutogradError } from './errors.js';
import { noGrad } from './gradMode.js';

let nextHookId = 0;

function registerHook(t: Tensor, fn: (grad: Tensor) => Tensor | void): RemovableHandle {
  if (!t.requiresGrad) throw new AutogradError('NO_GRAD_FN', "cannot register a hook on a tensor that doesn't require gradient");
  const node = (t.gradFn as Node | null) ?? gradAccumulator(t);
  return node.registerTensorPreHook(peekMeta(t)?.outputNr ?? 0, fn);
}

/** A non-leaf keeps its gradient in `.grad` (summed over passes), like PyTorch's retain_grad. */
function retainGrad(t: Tensor): void {
  if (!t.requiresGrad) throw new AutogradError('NO_GRAD_FN', "can't retain_grad on Tensor that has requires_grad=False");
  if (t.isLeaf) return;
  const meta = autogradMeta(t);
  if (meta.retainsGrad) return;
  meta.retainsGrad = true;
  (t.gradFn as Node).retainsGradHooks.set(meta.outputNr, (g) => {
    t.grad = t.grad === null ? noGrad(() => clone(detach(g))) : noGrad(() => add(t.grad!, g));
  });
}

function registerPostAccumulateGradHook(t: Tensor, fn: (param: Tensor) => void): RemovableHandle {
  if (!t.isLeaf) throw new AutogradError('INVALID_STATE', 'post accumulate grad hooks cannot be registered on non-leaf tensors');
  if (!t.requiresGrad) throw new AutogradError('NO_GRAD_FN', "cannot register a hook on a tensor that doesn't require gradient");
  const hooks = autogradMeta(t).postAccumulateHooks;
  const id = nextHookId++;
  hooks.set(id, fn);
  return { remove: () => hooks.delete(id) };
}

export function installTensorMethods(): void {
  installAutogradMethods({
    backward: (t, gradient, opts) => backward(t, gradient ? [gradient] : [], opts),
    backwardAsync: (t, gradient, opts) => backwardAsync(t, gradient ? [gradient] : [], opts),
    registerHook,
    retainGrad,
    retainsGrad: (t) => peekMeta(t)?.retainsGrad ?? false,
    registerPostAccumulateGradHook,
    checkSetRequiresGrad: (t, value) => {
      if (value && peekMeta(t)?.inference) {
        throw new AutogradError('INFERENCE_TENSOR', 'Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.');
      }
    },
  });
}
