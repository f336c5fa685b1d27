import { platform } from '#platform';
import { type AutogradTensorMethods, installAutogradMethods } from '@wiregrad/tensor/internal';
import { backward, backwardAsync } from './backward.js';
import { peekMeta } from './engine/autogradMeta.js';
import { viewGradFn } from './engine/copySlices.js';
import type { Node } from './engine/node.js';
import { AutogradError } from './errors.js';
import { isInferenceMode } from './gradMode.js';
import { isInference, storageCreated } from './inference.js';
import { registerHook, registerPostAccumulateGradHook, retainGrad } from './hooks.js';

// PyTorch's UserWarning, once per process (Python's default warning filter shows it once per place)
const NON_LEAF_GRAD =
  "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf Tensor, use .retainGrad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more informations.";
let warnedNonLeafGrad = false;

/** The Tensor methods of @wiregrad/autograd: one object, so installing them again is a no-op (Note [Hook slots install once] in @wiregrad/tensor). */
const METHODS: AutogradTensorMethods = {
  backward: (t, gradient, opts) => backward(t, gradient ? [gradient] : [], opts),
  backwardAsync: (t, gradient, opts) => backwardAsync(t, gradient ? [gradient] : [], opts),
  registerHook,
  retainGrad,
  retainsGrad: (t) => peekMeta(t)?.retainsGrad ?? false,
  registerPostAccumulateGradHook,
  resolveGradFn: (t, stored) => viewGradFn(t, stored as Node | null),
  isInference,
  storageCreated,
  readingNonLeafGrad: (t) => {
    if (warnedNonLeafGrad || peekMeta(t)?.retainsGrad) return;
    warnedNonLeafGrad = true;
    platform.warn(NON_LEAF_GRAD, 'UserWarning');
  },
  checkSetRequiresGrad: (t, value) => {
    if (value && !isInferenceMode() && isInference(t)) {
      throw new AutogradError(
        'INFERENCE_TENSOR',
        'Setting requiresGrad: true on inference tensor outside InferenceMode is not allowed.',
      );
    }
  },
};

/** Plugs the Tensor methods of @wiregrad/autograd into @wiregrad/tensor (see Note [Autograd hooks] there). */
export function installTensorMethods(): void {
  installAutogradMethods(METHODS);
}
