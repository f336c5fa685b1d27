import { type AutogradHooks, type Attrs, type Tensor, isFloatingPoint, KernelNames as K, setAutogradHooks } from '@wiregrad/tensor';
import { isAnomalyEnabled } from '../anomalyMode.js';
import { AutogradError } from '../errors.js';
import { getGradient, isNonDifferentiable } from '../gradients/registry.js';
import { isGradEnabled, isInferenceMode } from '../gradMode.js';
import { autogradMeta, peekMeta } from './autogradMeta.js';
import { collectNextEdges, setHistory } from './gradientEdge.js';
import { KernelNode } from './kernelNode.js';

const VIEW_KERNELS: ReadonlySet<string> = K.VIEW_KERNELS;
const INPLACE: ReadonlySet<string> = K.INPLACE_KERNELS;

/**
 * Note [Recording the graph]
 * Installed as @wiregrad/tensor's AutogradHooks (see Note [Autograd hooks] there). After a
 * kernel runs with grad mode on and an input that requires grad, a KernelNode with the
 * kernel's gradient rule becomes the gradFn of every floating-point output. In-place kernels
 * (CopyInto, Fill) rebase the target's history onto the new node; before they run, the
 * PyTorch checks: no in-place write into a leaf that requires grad, nor into a view of one,
 * nor into an inference tensor outside inferenceMode.
 */
function beforeKernel(kernelName: string, inputs: readonly Tensor[]): void {
  if (!INPLACE.has(kernelName)) return;
  const target = inputs[0]!;
  if (!isInferenceMode() && peekMeta(target)?.inference) {
    throw new AutogradError(
      'INFERENCE_TENSOR',
      'Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.',
    );
  }
  if (!isGradEnabled()) return;
  if (target.isLeaf && target.requiresGrad) {
    throw new AutogradError('LEAF_INPLACE', 'a leaf Variable that requires grad is being used in an in-place operation.');
  }
  const base = peekMeta(target)?.viewBase;
  if (base && base.requiresGrad) {
    if (base.isLeaf) throw new AutogradError('LEAF_INPLACE', 'a view of a leaf Variable that requires grad is being used in an in-place operation.');
    throw new AutogradError(
      'NOT_IMPLEMENTED',
      `in-place ${kernelName} on a view of a tensor that requires grad is not supported (PyTorch rebases the base's history with CopySlices); write into a clone() instead`,
    );
  }
}

function afterKernel(kernelName: string, inputs: readonly Tensor[], attrs: Attrs, outputs: Tensor[]): void {
  if (isInferenceMode()) {
    for (const o of outputs) autogradMeta(o).inference = true;
    return;
  }
  if (!isGradEnabled()) return;
  if (!inputs.some((t) => t.requiresGrad)) return;
  if (isNonDifferentiable(kernelName)) return;
  const config = getGradient(kernelName);
  if (!config) throw new AutogradError('NOT_IMPLEMENTED', `the derivative for '${kernelName}' is not implemented`);
  const node = new KernelNode(config, attrs, inputs);
  node.setNextEdges(collectNextEdges(inputs));
  if (isAnomalyEnabled()) node.forwardTrace = new Error().stack;
  const targets = INPLACE.has(kernelName) ? [inputs[0]!] : outputs;
  targets.forEach((o, i) => {
    if (!isFloatingPoint(o.dtype)) return;
    setHistory(o, node);
    if (i === 0 && VIEW_KERNELS.has(kernelName)) autogradMeta(o).viewBase = peekMeta(inputs[0]!)?.viewBase ?? inputs[0]!;
  });
  node.saveOutputs(targets);
}

export function installRecording(): void {
  setAutogradHooks({ beforeKernel, afterKernel } satisfies AutogradHooks);
}
