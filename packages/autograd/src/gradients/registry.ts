import { platform } from '#platform';
import {
  type Attrs,
  type DType,
  type Device,
  type KernelAttrs,
  type KernelName,
  type Tensor,
  zeros,
} from '@wiregrad/tensor';
import type { Grads } from '../engine/node.js';
import { sumToShape } from '../engine/sumToShape.js';

/** A kernel's attrs as its gradient rule reads them: KernelSpecs' for a kernel it names (Note [Kernel specs]), else erased. */
export type GradAttrs<N extends string> = N extends KernelName ? KernelAttrs<N> : Attrs;

/** What a gradient rule sees: saved tensors (version-checked on access), attrs, input shapes. */
export interface GradContext<N extends string = string> {
  /** the saved forward inputs (only those listed in `saveInputs`) */
  input(i: number): Tensor;
  /** the saved forward output */
  output(i?: number): Tensor;
  readonly attrs: GradAttrs<N>;
  readonly inputShapes: readonly (readonly number[])[];
  readonly inputDtypes: readonly DType[];
  readonly inputDevices: readonly Device[];
  /** whether the running pass needs the gradient of forward input i (PyTorch's needs_input_grad) */
  needsInputGrad(i: number): boolean;
}

/**
 * Note [Gradient rules]
 * One rule per kernel name (tfjs's registerGradient, PyTorch's derivatives.yaml): which
 * inputs/outputs to save, and `gradFunc(grads, ctx)` returning one gradient per forward input
 * (null where none flows). Rules are written with tensor ops, so under createGraph the
 * backward pass is itself recorded and can be differentiated again. A rule for a kernel of
 * KernelSpecs reads that kernel's attrs, typed; the registry keeps rules with their names'
 * types erased (`gradFunc` is a method, whose parameters compare both ways).
 */
export interface GradConfig<N extends string = string> {
  kernelName: N;
  saveInputs?: readonly number[];
  saveOutputs?: boolean;
  gradFunc(grads: Grads, ctx: GradContext<N>): Grads;
}

const rules = new Map<string, GradConfig>();
const nonDifferentiable = new Set<string>();

/** Registers the gradient rule of `config.kernelName`; another rule for a name that has one warns, as tfjs does, and replaces it. */
export function registerGradient<N extends string>(config: GradConfig<N>): void {
  const registered = rules.get(config.kernelName);
  if (registered !== undefined && registered !== config) {
    platform.warn(
      `The gradient for kernel '${config.kernelName}' is already registered; the new one replaces it.`,
      'RegistrationWarning',
    );
  }
  rules.set(config.kernelName, config);
}

/** Kernels whose outputs never carry a gradient (comparisons, argmax, one-hot...). */
export function declareNonDifferentiable(...kernelNames: string[]): void {
  for (const k of kernelNames) nonDifferentiable.add(k);
}

export function getGradient(kernelName: string): GradConfig | undefined {
  return rules.get(kernelName);
}

export function isNonDifferentiable(kernelName: string): boolean {
  return nonDifferentiable.has(kernelName);
}

/** A broadcast gradient summed back to the shape forward input `i` had (PyTorch's sum_to). */
export const toInputShape = (g: Tensor, ctx: GradContext, i: number): Tensor => sumToShape(g, ctx.inputShapes[i]!);

/** `f()` when the pass needs the gradient of forward input `i`, else null (no work for pruned edges). */
export const ifNeeded = (ctx: GradContext, i: number, f: () => Tensor): Tensor | null =>
  ctx.needsInputGrad(i) ? f() : null;

/** `g`, or zeros of `shape` (forward input 0's dtype and device) for an output that got no gradient, as PyTorch's rules read an undefined one. */
export const orZeros = (g: Tensor | null, shape: readonly number[], ctx: GradContext): Tensor =>
  g ?? zeros([...shape], { dtype: ctx.inputDtypes[0], device: ctx.inputDevices[0] });
