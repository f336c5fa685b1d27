import { type Tensor, Tensor as TensorClass, detach, isFloatingPoint, zeros } from '@wiregrad/tensor';
import { collectNextEdges, setHistory } from './engine/gradientEdge.js';
import { Node, type Grads, type InputMetadata } from './engine/node.js';
import { SavedVariable } from './engine/savedVariable.js';
import { AutogradError } from './errors.js';
import { isGradEnabled, noGrad } from './gradMode.js';

/** The `ctx` of a custom Function (PyTorch's FunctionCtx); extra fields may be stored on it. */
export class FunctionCtx {
  private toSave: (Tensor | null)[] = [];
  private saved: (SavedVariable | null)[] = [];
  readonly dirty = new Set<Tensor>();
  readonly nonDifferentiable = new Set<Tensor>();
  materializeGrads = true;
  /** one entry per forward argument: a tensor that requires grad (while grad mode is on) */
  needsInputGrad: boolean[] = [];
  /** the backward node of this call, once forward recorded one */
  node: Node | null = null;
  [key: string]: unknown;

  /** Tensors backward will need; null (PyTorch's None) holds a place and comes back as null. */
  saveForBackward(...tensors: (Tensor | null)[]): void {
    this.toSave = tensors;
  }

  /** The saved tensors, checked against in-place changes (PyTorch's saved_tensors); null where null was saved. */
  get savedTensors(): (Tensor | null)[] {
    if (this.saved.length === 0) return this.toSave;
    return this.saved.map((s) => s?.unpack(this.node ?? undefined) ?? null);
  }

  /** Inputs modified in place by forward: they must be returned, and get the new history. */
  markDirty(...tensors: Tensor[]): void {
    for (const t of tensors) this.dirty.add(t);
  }

  markNonDifferentiable(...tensors: Tensor[]): void {
    for (const t of tensors) this.nonDifferentiable.add(t);
  }

  /** Whether backward gets zeros (true, the default) or null for outputs that received no gradient. */
  setMaterializeGrads(value: boolean): void {
    this.materializeGrads = value;
  }

  /** PyTorch's _save_variables, run after the outputs got their history (so outputs are told apart). */
  commitSaved(node: Node | null): void {
    this.saved = this.toSave.map((t) => t && new SavedVariable(t, node !== null && t.gradFn === node));
  }

  releaseSaved(): void {
    for (const s of this.saved) s?.release();
  }
}

type FunctionClass = {
  name: string;
  engineOwnsGrads?: boolean;
  forward(ctx: FunctionCtx, ...args: never[]): Tensor | Tensor[];
  backward(ctx: FunctionCtx, ...grads: never[]): Tensor | null | (Tensor | null)[];
};

const zerosFor = (m: InputMetadata): Tensor => zeros(m.shape as number[], { dtype: m.dtype, device: m.device });

/** PyTorch's PyNode / BackwardCFunction: runs the class's backward and maps its results to the tensor arguments. */
class CustomFunctionNode extends Node {
  constructor(
    private readonly cls: FunctionClass,
    private readonly ctx: FunctionCtx,
    private readonly isTensorArg: boolean[],
  ) {
    super();
    ctx.node = this;
  }

  name(): string {
    return `${this.cls.name}Backward`;
  }

  apply(grads: Grads): Grads {
    const g = grads.map((x, i) => x ?? (this.ctx.materializeGrads ? zerosFor(this.inputMetadata[i]!) : null));
    const result = (
      this.cls.backward as (ctx: FunctionCtx, ...grads: (Tensor | null)[]) => Tensor | null | (Tensor | null)[]
    )(this.ctx, ...g);
    const list = Array.isArray(result) ? result : [result];
    const expected = this.isTensorArg.length;
    // PyTorch accepts extra trailing nulls, nothing else
    if (list.length < expected || list.slice(expected).some((x) => x !== null && x !== undefined)) {
      throw new AutogradError(
        'INVALID_GRADIENT',
        `function ${this.name()} returned an incorrect number of gradients (expected ${expected}, got ${list.length})`,
      );
    }
    const out: Grads = [];
    this.isTensorArg.forEach((isTensor, i) => {
      const gi = list[i] ?? null;
      if (isTensor) out.push(gi);
      else if (gi !== null) {
        throw new AutogradError(
          'INVALID_GRADIENT',
          `function ${this.name()} returned a gradient different than None at position ${i + 1}, but the corresponding forward input was not a Variable`,
        );
      }
    });
    return out;
  }

  /** A Function that lets the engine own its gradients is used as a built-in node is (Note [Functions whose gradients the engine owns]). */
  override get gradUse(): 'formula' | 'unknown' {
    return this.cls.engineOwnsGrads === true ? 'formula' : 'unknown';
  }

  override releaseVariables(): void {
    this.ctx.releaseSaved();
  }
}

/**
 * Note [Functions whose gradients the engine owns]
 * The engine cannot know what a custom Function's backward keeps (ctx fields, closures), so
 * the gradients it gets and returns escape (Note [Gradients the engine owns]): AccumulateGrad
 * copies a returned weight gradient into `.grad` instead of taking it over, and the
 * temporaries of the formula are left to the GC. A subclass whose backward keeps neither the
 * gradients it gets nor any tensor it makes (besides those it returns) sets the static
 * `engineOwnsGrads = true`: its node is then a 'formula' node as a KernelNode is, so the
 * temporaries are released when it returns, its incoming gradients once consumed, and a
 * returned gradient nothing else holds becomes `.grad` (PyTorch steals it there as well, by
 * its reference count). nn's fused linear+ReLU does: without it, each step cloned the fresh
 * [out, in] weight gradient, into fresh memory when the caller disposes nothing.
 */

/**
 * Custom autograd functions, as in PyTorch: subclass with static `forward(ctx, ...args)` and
 * `backward(ctx, ...grads)` (one gradient per forward argument, null for non-tensors), call
 * `MyFn.apply(...args)`. Forward runs under noGrad; when an argument requires grad the outputs
 * get one node whose apply calls `backward` (PyTorch's _wrap_outputs rules for inputs returned
 * as is, dirty inputs and non-differentiable outputs).
 */
export class Function {
  /** The backward keeps nothing it gets or makes besides its results (Note [Functions whose gradients the engine owns]). */
  static engineOwnsGrads = false;

  static forward(_ctx: FunctionCtx, ..._args: never[]): Tensor | Tensor[] {
    throw new AutogradError('NOT_IMPLEMENTED', 'You must implement the forward function for custom autograd.Function.');
  }

  static backward(_ctx: FunctionCtx, ..._grads: never[]): Tensor | null | (Tensor | null)[] {
    throw new AutogradError(
      'NOT_IMPLEMENTED',
      'You must implement either the backward or vjp method for your custom autograd.Function to use it with backward mode AD.',
    );
  }

  /** `MyFn.apply(...args)`: the result type is forward's (or `T` when given explicitly). */
  static apply<T extends Tensor | Tensor[] = never, F extends FunctionClass = FunctionClass>(
    this: F,
    ...args: unknown[]
  ): [T] extends [never] ? ReturnType<F['forward']> : T {
    const ctx = new FunctionCtx();
    const isTensorArg = args.map((a) => a instanceof TensorClass);
    const tensorArgs = args.filter((a): a is Tensor => a instanceof TensorClass);
    ctx.needsInputGrad = args.map((a) => a instanceof TensorClass && isGradEnabled() && a.requiresGrad);
    const record = ctx.needsInputGrad.some(Boolean);
    const raw = noGrad(() => (this.forward as (ctx: FunctionCtx, ...a: unknown[]) => Tensor | Tensor[])(ctx, ...args));
    const outputs = Array.isArray(raw) ? [...raw] : [raw];
    for (const d of ctx.dirty) {
      if (!outputs.includes(d)) {
        throw new AutogradError(
          'INVALID_STATE',
          'Some elements marked as dirty during the forward method were not returned as output. The inputs that are modified inplace must all be outputs of the Function.',
        );
      }
    }
    const node = record ? new CustomFunctionNode(this, ctx, isTensorArg) : null;
    if (node) node.setNextEdges(collectNextEdges(tensorArgs));
    outputs.forEach((out, i) => {
      const dirty = ctx.dirty.has(out);
      const differentiable = !ctx.nonDifferentiable.has(out) && isFloatingPoint(out.dtype);
      // an input returned as is becomes a new view of it (PyTorch's _view_as_self_with_no_grad)
      const o = tensorArgs.includes(out) && !dirty ? (outputs[i] = detach(out)) : out;
      if (!node) return;
      if (!differentiable) {
        node.addInputMetadata(o);
        return;
      }
      if (dirty && o.isLeaf && o.requiresGrad) {
        throw new AutogradError(
          'LEAF_INPLACE',
          'a leaf tensor that requires grad has been used in an in-place operation.',
        );
      }
      setHistory(o, node);
    });
    ctx.commitSaved(node);
    return (Array.isArray(raw) ? outputs : outputs[0]) as [T] extends [never] ? ReturnType<F['forward']> : T;
  }
}
