import type { Storage, Tensor } from '@wiregrad/tensor';
import { isInferenceMode } from './gradMode.js';
import { checkTensor } from './validate.js';

/**
 * Note [Inference tensors]
 * PyTorch's inference tensors are the tensors allocated under InferenceMode: a view of one is
 * one too, while a view of a normal tensor, or an in-place write into it, under
 * InferenceMode leaves a normal tensor. Here a tensor is one when its storage was made under
 * inferenceMode (@wiregrad/tensor tells autograd of each new storage). Outside inferenceMode
 * they cannot be saved for backward, written in place or made to require grad. Ops on them
 * outside inferenceMode give normal tensors (new storages).
 */
const inferenceStorages = new WeakSet<Storage>();

/** The first tensor over a new storage: one made under inferenceMode is an inference tensor. */
export function storageCreated(t: Tensor): void {
  if (isInferenceMode()) inferenceStorages.add(t.storage);
}

/** Whether `t` was made under inferenceMode, or is a view of such a tensor (PyTorch's is_inference). */
export function isInference(t: Tensor): boolean {
  checkTensor('isInference', 'input', t);
  return inferenceStorages.has(t.storage);
}
