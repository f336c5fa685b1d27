import { type Tensor, Tensor as TensorClass, isFloatingPoint, zerosLike } from '@wiregrad/tensor';
import { autogradMeta } from './engine/autogradMeta.js';
import { collectNextEdges, setHistory } from './engine/gradientEdge.js';
import { Node, type Grads } from './engine/node.js';
import { SavedVariable } from './engine/savedVariable.js';
import { AutogradError } from './errors.js';
import { isGradEnabled, noGrad } from './gradMode.js';

/** The `ctx` of a custom Function (PyTorch's FunctionCtx). */
export class FunctionCtx {
  private saved: SavedVariable[] = [];
  readonly dirty = new Set<Tensor>();
  readonly nonDifferentiable = new Set<Tensor>();
  materializeGrads = true;
  needsInputGrad: boolean[] = [];
  /** the node running this ctx's backward */
  node: Node | null = null;
  [key: string]: unknown;

  saveForBackward(...tensors: Tensor[]): void {
    this.saved = tensors.map((t) => new SavedVariable(t));
  }

  get savedTensors(): Tensor[] {
    return this.saved.map((s) => s.unpack(this.node ?? undefined));
  }

  /** Inputs modified in place by forward: they become outputs with a new history. */
  markDirty(...tensors: Tensor[]): void {
    for (const t of tensors) this.dirty.add(t);
  }

  markNonDifferentiable(...tensors: Tensor[]): void {
    for (const t of tensors) this.nonDifferentiable.add(t);
  }

  setMaterializeGrads(value: boolean): void {
    this.materializeGrads = value;
  }

  releaseSaved(): void {
    for (const s of this.saved) s.release();
  }
}

type FunctionClass = {
  name: string;
  forward(ctx: FunctionCtx, ...args: never[]): Tensor | Tensor[];
  backward(ctx: FunctionCtx, ...grads: never[]): Tensor | null | (Tensor | null)[];
};

class CustomFunctionNode extends Node {
  constructor(
    private readonly cls: FunctionClass,
    private readonly ctx: FunctionCtx,
    private readonly outputs: readonly Tensor[],
  ) {
    super();
    ctx.node = this;
  }

  name(): string {
    return `${this.cls.name}Backward`;
  }

  apply(grads: Grads): Grads {
    const g = grads.map((x, i) => x ?? (this.ctx.materializeGrads ? zerosLike(this.outputs[i]!) : null));
    this.ctx.needsInputGrad = this.nextEdges.map((_, i) => this.taskShouldComputeOutput(i));
    const result = (this.cls.backward as (ctx: FunctionCtx, ...grads: (Tensor | null)[]) => Tensor | null | (Tensor | null)[])(this.ctx, ...g);
    const list = Array.isArray(result) ? result : [result];
    // PyTorch lets backward return extra trailing None for non-tensor inputs
    return list.slice(0, this.numOutputs).concat(new Array(Math.max(0, this.numOutputs - list.length)).fill(null));
  }

  override releaseVariables(): void {
    this.ctx.releaseSaved();
  }
}

/**
 * Custom autograd functions, as in PyTorch: subclass with static `forward(ctx, ...args)` and
 * `backward(ctx, ...grads)`, call `MyFn.apply(...args)`. Forward runs without recording; the
 * outputs get one node whose apply calls `backward`. Non-tensor arguments get no gradient.
 */
export class Function {
  static forward(_ctx: FunctionCtx, ..._args: never[]): Tensor | Tensor[] {
    throw new AutogradError('NOT_IMPLEMENTED', 'You must implement the forward function for custom autograd.Function.');
  }

  static backward(_ctx: FunctionCtx, ..._grads: never[]): Tensor | null | (Tensor | null)[] {
    throw new AutogradError('NOT_IMPLEMENTED', 'You must implement either the backward or vjp method for your custom autograd.Function to use it with backward mode AD.');
  }

  static apply<T extends Tensor | Tensor[]>(this: FunctionClass, ...args: unknown[]): T {
    const ctx = new FunctionCtx();
    const tensorArgs = args.filter((a): a is Tensor => a instanceof TensorClass);
    const record = isGradEnabled() && tensorArgs.some((t) => t.requiresGrad);
    ctx.needsInputGrad = tensorArgs.map((t) => record && t.requiresGrad);
    const raw = noGrad(() => (this.forward as (ctx: FunctionCtx, ...a: unknown[]) => Tensor | Tensor[])(ctx, ...args));
    const outputs = Array.isArray(raw) ? raw : [raw];
    if (record) {
      const node = new CustomFunctionNode(this, ctx, outputs);
      node.setNextEdges(collectNextEdges(tensorArgs));
      outputs.forEach((o) => {
        if (ctx.nonDifferentiable.has(o) || !isFloatingPoint(o.dtype)) {
          node.addInputMetadata(o);
          return;
        }
        if (tensorArgs.includes(o) && !ctx.dirty.has(o)) {
          throw new AutogradError('INVALID_STATE', `${this.name}.forward returned an input unchanged without markDirty; return a view or clone, or call ctx.markDirty()`);
        }
        if (ctx.dirty.has(o) && o.isLeaf && o.requiresGrad) {
          throw new AutogradError('LEAF_INPLACE', 'a leaf Variable that requires grad is being used in an in-place operation.');
        }
        setHistory(o, node);
        autogradMeta(o);
      });
    }
    return (Array.isArray(raw) ? outputs : outputs[0]) as T;
  }
}
