import { type Tensor, add, clone, detach } from '@wiregrad/tensor';
import { autogradMeta, peekMeta } from './engine/autogradMeta.js';
import { gradAccumulator } from './engine/gradientEdge.js';
import type { Node, RemovableHandle } from './engine/node.js';
import { AutogradError } from './errors.js';
import { noGrad } from './gradMode.js';
import { checkFunction, checkTensor } from './validate.js';

/**
 * Note [Tensor hooks]
 * As in PyTorch (function.h), a tensor's hooks live on the node its gradient arrives at: its
 * gradFn for a non-leaf, its AccumulateGrad for a leaf, keyed by the tensor's output number.
 * They are tensor pre-hooks: they run whenever the engine reaches that node, even when the
 * node itself is not executed (a grad() capture), before the node's own pre-hooks; a hook's
 * return value replaces the gradient. retainGrad's hook runs after them (retains_grad_hooks_),
 * so `.grad` of a non-leaf holds the hooked gradient. Post-accumulate-grad hooks run on a leaf
 * after AccumulateGrad updated its `.grad`. As in PyTorch, a hook on one output of a
 * multi-output node (a piece of split or unbind) also runs when only a sibling output got a
 * gradient, with null (PyTorch's None): the hook's parameter is typed `Tensor` for the common
 * case, as PyTorch's C++ hooks take a possibly undefined Tensor; declare it `Tensor | null`
 * to handle that case.
 */
export function registerHook(t: Tensor, fn: (grad: Tensor) => Tensor | void): RemovableHandle {
  checkTensor('registerHook', 'input', t);
  checkFunction('registerHook', 'hook', fn);
  if (!t.requiresGrad)
    throw new AutogradError('NO_GRAD_FN', "cannot register a hook on a tensor that doesn't require gradient");
  const node = (t.gradFn as Node | null) ?? gradAccumulator(t);
  return node.registerTensorPreHook(peekMeta(t)?.outputNr ?? 0, fn);
}

/** A non-leaf keeps its gradient in `.grad` (summed over passes), like PyTorch's retain_grad; a no-op on leaves. */
export function retainGrad(t: Tensor): void {
  checkTensor('retainGrad', 'input', t);
  if (!t.requiresGrad) throw new AutogradError('NO_GRAD_FN', "can't retainGrad on Tensor that has requiresGrad: false");
  if (t.isLeaf) return;
  const meta = autogradMeta(t);
  if (meta.retainsGrad) return;
  meta.retainsGrad = true;
  (t.gradFn as Node).setRetainsGradHook(meta.outputNr, (g) => {
    t.grad = t.grad === null ? noGrad(() => clone(detach(g))) : noGrad(() => add(t.grad!, g));
  });
}

let nextHookId = 0;

/** `fn(param)` after each accumulation into a leaf's `.grad` (PyTorch's register_post_accumulate_grad_hook). */
export function registerPostAccumulateGradHook(t: Tensor, fn: (param: Tensor) => void): RemovableHandle {
  checkTensor('registerPostAccumulateGradHook', 'input', t);
  checkFunction('registerPostAccumulateGradHook', 'hook', fn);
  if (!t.isLeaf)
    throw new AutogradError('INVALID_STATE', 'post accumulate grad hooks cannot be registered on non-leaf tensors');
  if (!t.requiresGrad)
    throw new AutogradError('NO_GRAD_FN', "cannot register a hook on a tensor that doesn't require gradient");
  const meta = autogradMeta(t);
  const hooks = (meta.postAccumulateHooks ??= new Map());
  const id = nextHookId++;
  hooks.set(id, fn);
  return { remove: () => hooks.delete(id) };
}
