import { TensorError } from './errors.js';
import { INPLACE_KERNELS } from './kernelNames.js';
import { installOnce } from './installOnce.js';
import { getKernel, type Attrs } from './kernelRegistry.js';
import type { AttrsArg, KernelInputs, KernelName } from './kernelSpecs.js';
import type { Tensor } from './tensor.js';

/**
 * Note [Autograd hooks]
 * @wiregrad/tensor knows nothing of autograd. @wiregrad/autograd installs these hooks once
 * at import; `runKernel` calls them around every kernel so the engine can check in-place
 * writes (leaf / version rules) before, and record a graph Node after. Ops that are
 * composites of other ops are recorded through their parts.
 */
export interface AutogradHooks {
  beforeKernel(kernelName: string, inputs: readonly Tensor[], attrs: Attrs): void;
  afterKernel(kernelName: string, inputs: readonly Tensor[], attrs: Attrs, outputs: Tensor[]): void;
  /** Whether a kernel run now on `inputs` would record a graph node (grad mode on, an input requiring grad). */
  wouldRecord?(inputs: readonly Tensor[]): boolean;
}

let hooks: AutogradHooks | null = null;

/** Shared by every call without attrs: autograd keeps a node's attrs for the node's life. */
const NO_ATTRS: Attrs = Object.freeze({});

/**
 * Installs the autograd hooks, once (@wiregrad/autograd does it at import). Installing the
 * hooks already installed again is a no-op; any other install throws ALREADY_INSTALLED, so
 * that nothing (`setAutogradHooks(null)` included) silently replaces graph recording.
 */
export function setAutogradHooks(h: AutogradHooks | null): void {
  hooks = installOnce('setAutogradHooks', 'the autograd hooks', hooks, h);
}

/** Whether autograd would record a kernel run now on `inputs` (false without autograd). */
export function recordsGraph(inputs: readonly Tensor[]): boolean {
  return hooks?.wouldRecord?.(inputs) ?? false;
}

/** Runs `kernelName` on the device of its inputs: PyTorch's same-device rule, then the registered kernel. */
export function runKernel<N extends KernelName>(
  kernelName: N,
  inputs: KernelInputs<N>,
  ...[attrs = NO_ATTRS]: AttrsArg<N>
): Tensor[] {
  const first = inputs[0];
  if (!first) throw new TensorError('INVALID_ARGUMENT', `kernel '${kernelName}' needs at least one input`);
  const dev = first.device;
  for (const t of inputs) {
    t.storage.assertAlive();
    if (t.device !== dev) {
      throw new TensorError(
        'DEVICE_MISMATCH',
        `Expected all tensors to be on the same device, but found at least two devices, ${dev.toString()} and ${t.device.toString()}!`,
      );
    }
  }
  const kernel = getKernel(kernelName, dev.type);
  hooks?.beforeKernel(kernelName, inputs, attrs);
  const outputs = kernel(inputs, attrs);
  if (INPLACE_KERNELS.has(kernelName)) first.storage.version++;
  hooks?.afterKernel(kernelName, inputs, attrs, outputs);
  return outputs;
}

/** The common case: one output. */
export function runKernel1<N extends KernelName>(
  kernelName: N,
  inputs: KernelInputs<N>,
  ...attrs: AttrsArg<N>
): Tensor {
  return runKernel(kernelName, inputs, ...attrs)[0]!;
}
