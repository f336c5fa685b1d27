import {
  type AutogradHooks,
  type Attrs,
  type Tensor,
  isFloatingPoint,
  KernelNames as K,
  setAutogradHooks,
} from '@wiregrad/tensor/internal';
import { AutogradError } from '../errors.js';
import { getGradient, isNonDifferentiable } from '../gradients/registry.js';
import { isGradEnabled, isInferenceMode } from '../gradMode.js';
import { isInference } from '../inference.js';
import { autogradMeta, peekMeta } from './autogradMeta.js';
import { collectNextEdges, setHistory } from './gradientEdge.js';
import { KernelNode } from './kernelNode.js';
import type { Node } from './node.js';
import { checkMultiOutputView, rebaseHistory } from './copySlices.js';

const VIEW_KERNELS: ReadonlySet<string> = K.VIEW_KERNELS;
const INPLACE: ReadonlySet<string> = K.INPLACE_KERNELS;
const MULTI_OUTPUT_VIEW_KERNELS: ReadonlySet<string> = new Set([K.Split, K.Unbind]);

/**
 * Note [Recording the graph]
 * Installed as @wiregrad/tensor's AutogradHooks (see Note [Autograd hooks] there). After a
 * kernel runs with grad mode on and an input that requires grad, a KernelNode with the
 * kernel's gradient rule becomes the gradFn of every floating-point output. In-place kernels
 * (CopyInto, Fill) rebase the target's history onto the new node, or its base's for a view
 * (See Note [In-place on views]); before they run, the PyTorch checks: no in-place write
 * into a leaf that requires grad, nor into a view of one, nor into an inference tensor
 * outside inferenceMode, nor into a piece of split or unbind (See Note [Multi-output views]);
 * and the node computing the value written keeps its own view of the old value
 * (KernelNode.keepSavedInputsOf). Every view remembers its base, whatever the grad mode.
 */
function beforeKernel(kernelName: string, inputs: readonly Tensor[]): void {
  if (!INPLACE.has(kernelName)) return;
  const target = inputs[0]!;
  if (!isInferenceMode() && isInference(target)) {
    throw new AutogradError(
      'INFERENCE_TENSOR',
      'Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.',
    );
  }
  if (!isGradEnabled()) return;
  if (inputs.some((t) => t.requiresGrad)) checkMultiOutputView(target, target.gradFn as Node | null, false);
  if (target.isLeaf && target.requiresGrad) {
    throw new AutogradError('LEAF_INPLACE', 'a leaf tensor that requires grad is being used in an in-place operation.');
  }
  const base = peekMeta(target)?.viewBase;
  if (base?.isLeaf && base.requiresGrad) {
    throw new AutogradError(
      'LEAF_INPLACE',
      'a view of a leaf tensor that requires grad is being used in an in-place operation.',
    );
  }
  const source = inputs[1]?.gradFn;
  if (source instanceof KernelNode) source.keepSavedInputsOf(target.storage);
}

function afterKernel(kernelName: string, inputs: readonly Tensor[], attrs: Attrs, outputs: Tensor[]): void {
  const input = inputs[0]!;
  const recording = !isInferenceMode() && isGradEnabled();
  // views are tracked whatever the mode: a later in-place write must reach their base (Note [In-place on views])
  if (VIEW_KERNELS.has(kernelName)) {
    const inputMeta = peekMeta(input);
    // See Note [Multi-output views]: made with grad mode on, a piece and every view of it refuse in-place writes
    const multiOutput =
      recording && (MULTI_OUTPUT_VIEW_KERNELS.has(kernelName) || (inputMeta?.multiOutputView ?? false));
    for (const o of outputs) {
      if (o.storage !== input.storage) continue;
      const meta = autogradMeta(o);
      meta.viewBase = inputMeta?.viewBase ?? input;
      meta.viewVersion = input.storage.version;
      meta.multiOutputView = multiOutput;
    }
  }
  // nothing is recorded under inferenceMode (See Note [Inference tensors])
  if (!recording) return;
  if (!inputs.some((t) => t.requiresGrad)) return;
  if (isNonDifferentiable(kernelName)) return;
  const config = getGradient(kernelName);
  if (!config) throw new AutogradError('NOT_IMPLEMENTED', `the derivative for '${kernelName}' is not implemented`);
  const node = new KernelNode(config, attrs, inputs);
  node.setNextEdges(collectNextEdges(inputs));
  if (INPLACE.has(kernelName)) {
    const base = peekMeta(input)?.viewBase;
    if (base) rebaseHistory(base, input, node);
    else setHistory(input, node);
    node.saveOutputs([input]);
    return;
  }
  for (const o of outputs) if (isFloatingPoint(o.dtype)) setHistory(o, node);
  node.saveOutputs(outputs);
}

/** Whether afterKernel would record a node for a kernel run now on `inputs` (Note [In-place fast path] asks). */
function wouldRecord(inputs: readonly Tensor[]): boolean {
  return !isInferenceMode() && isGradEnabled() && inputs.some((t) => t.requiresGrad);
}

export function installRecording(): void {
  setAutogradHooks({ beforeKernel, afterKernel, wouldRecord } satisfies AutogradHooks);
}
