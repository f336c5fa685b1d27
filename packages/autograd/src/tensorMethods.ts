import { installAutogradMethods } from '@wiregrad/tensor';
import { backward, backwardAsync } from './backward.js';
import { peekMeta } from './engine/autogradMeta.js';
import { viewGradFn } from './engine/copySlices.js';
import type { Node } from './engine/node.js';
import { AutogradError } from './errors.js';
import { registerHook, registerPostAccumulateGradHook, retainGrad } from './hooks.js';

/** Plugs the Tensor methods of @wiregrad/autograd into @wiregrad/tensor (see Note [Autograd hooks] there). */
export function installTensorMethods(): void {
  installAutogradMethods({
    backward: (t, gradient, opts) => backward(t, gradient ? [gradient] : [], opts),
    backwardAsync: (t, gradient, opts) => backwardAsync(t, gradient ? [gradient] : [], opts),
    registerHook,
    retainGrad,
    retainsGrad: (t) => peekMeta(t)?.retainsGrad ?? false,
    registerPostAccumulateGradHook,
    resolveGradFn: (t, stored) => viewGradFn(t, stored as Node | null),
    checkSetRequiresGrad: (t, value) => {
      if (value && peekMeta(t)?.inference) {
        throw new AutogradError('INFERENCE_TENSOR', 'Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.');
      }
    },
  });
}
