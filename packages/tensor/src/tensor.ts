/// <reference lib="esnext.disposable" preserve="true" />
// Note [Disposable in the published types]: Tensor has [Symbol.dispose]; this keeps the lib that
// declares Symbol.dispose in tensor.d.ts, so a project whose `lib` lacks it still type-checks.
import { CPU, type Device } from './device.js';
import { type DType, type TypedArray, isFloatingPoint } from './dtype.js';
import { TensorError } from './errors.js';
import { installOnce } from './installOnce.js';
import { internDims } from './internedDims.js';
import { contiguousStrides, normalizeDim, numelOf } from './shape.js';
import { Storage } from './storage.js';

export type NestedArray = number | boolean | NestedArray[];

/** An autograd graph node as seen from a tensor (`t.gradFn`); @wiregrad/autograd's Node implements it. */
export interface GradNode {
  name(): string;
  readonly sequenceNr: number;
  readonly topologicalNr: number;
  readonly nextFunctions: [GradNode | null, number][];
  registerHook(
    fn: (gradInputs: (Tensor | null)[], gradOutputs: (Tensor | null)[]) => (Tensor | null)[] | void,
  ): RemovableHandle;
  registerPrehook(fn: (gradOutputs: (Tensor | null)[]) => (Tensor | null)[] | void): RemovableHandle;
}

export interface BackwardOptions {
  retainGraph?: boolean;
  createGraph?: boolean;
  inputs?: Tensor[];
}

export interface RemovableHandle {
  remove(): void;
}

/** The tensor methods @wiregrad/autograd provides (see Note [Autograd hooks] in dispatch.ts). */
export interface AutogradTensorMethods {
  backward(t: Tensor, gradient: Tensor | undefined, opts: BackwardOptions): void;
  backwardAsync(t: Tensor, gradient: Tensor | undefined, opts: BackwardOptions): Promise<void>;
  registerHook(t: Tensor, fn: (grad: Tensor) => Tensor | void): RemovableHandle;
  retainGrad(t: Tensor): void;
  retainsGrad(t: Tensor): boolean;
  registerPostAccumulateGradHook(t: Tensor, fn: (param: Tensor) => void): RemovableHandle;
  /** Checked when user code sets `requiresGrad` (inference tensors etc.). */
  checkSetRequiresGrad?(t: Tensor, value: boolean): void;
  /** Called when `.grad` of a non-leaf is read while empty (PyTorch warns). */
  readingNonLeafGrad?(t: Tensor): void;
  /** Whether `t` is an inference tensor (made under inferenceMode). */
  isInference?(t: Tensor): boolean;
  /** Called with the first tensor over each new storage (autograd marks those made under inferenceMode). */
  storageCreated?(t: Tensor): void;
  /** The gradFn to report for `t` given the stored one (a view written through since gets a new one). */
  resolveGradFn?(t: Tensor, stored: GradNode | null): GradNode | null;
}

/** The innermost tidy() scope (or autograd's, Note [Gradients the engine owns]): tensors created while it is open. */
let scope: Tensor[] | null = null;

/** Sets the list every new Tensor is pushed to (null: none); returns the previous one. See scope.ts. */
export function setTensorScope(next: Tensor[] | null): Tensor[] | null {
  const prev = scope;
  scope = next;
  return prev;
}

/** >0 while unscoped() runs: autograd is not told of the storages made then. */
let unscopedDepth = 0;

/**
 * Runs `fn` outside every scope and mode: no tidy() collects the tensors it makes and autograd
 * does not see their storages created (so none is an inference tensor). For tensors shared
 * by every later op, as the interned scalars of Note [Wrapped scalars].
 */
export function unscoped<T>(fn: () => T): T {
  const outer = setTensorScope(null);
  unscopedDepth++;
  try {
    return fn();
  } finally {
    unscopedDepth--;
    setTensorScope(outer);
  }
}

/** Tensors no tidy() may dispose: keep()'s, and every tensor assigned to some `.grad`. */
const kept = new WeakSet<Tensor>();

/** Marks `t` so that no enclosing tidy() disposes it (tfjs's keep); returns it. Its own dispose() still releases it. */
export function keep<T extends Tensor>(t: T): T {
  kept.add(t);
  return t;
}

export function isKept(t: Tensor): boolean {
  return kept.has(t);
}

/**
 * Note [Gradients nobody else saw]
 * PyTorch frees a gradient when `zero_grad()` drops the last reference to it; JS cannot count
 * references, so a tensor's `.grad` records whether it may be referenced outside the libraries:
 * it is "seen" once the `grad` getter returned it or a caller set it, and unseen while only
 * library code put it there (AccumulateGrad's clone, or the engine's own gradient it took over:
 * Note [Gradients the engine owns] in @wiregrad/autograd) and read it through `peekGrad`
 * (optimizers' steps, clipGradNorm), which keep no reference past their call. `zeroGrad()`
 * disposes an unseen gradient it sets to none, so its memory goes back to the allocator at
 * once, even in a loop that never yields to the event loop (where FinalizationRegistry
 * callbacks never run and a dropped gradient would keep its wasm block until the loop ends). A
 * seen gradient is only dropped, as before: whoever holds it keeps reading its values. Views of
 * a gradient hold its storage on their own (Note [Releasing storages]), so only the gradient
 * tensor itself must be unseen.
 */
let gradSlots: {
  peek(t: Tensor): Tensor | null;
  setUnseen(t: Tensor, g: Tensor | null): void;
  dropUnseen(t: Tensor): void;
};

/** `t.grad` for library code that keeps no reference to it past its call; it stays unseen (Note [Gradients nobody else saw]). */
export const peekGrad = (t: Tensor): Tensor | null => gradSlots.peek(t);

/** Sets `t.grad` to a tensor only library code has referenced (Note [Gradients nobody else saw]). */
export const setUnseenGrad = (t: Tensor, g: Tensor | null): void => gradSlots.setUnseen(t, g);

/** Sets `t.grad` to none, disposing it when nobody outside the libraries saw it (Note [Gradients nobody else saw]). */
export const dropGrad = (t: Tensor): void => gradSlots.dropUnseen(t);

let autogradMethods: AutogradTensorMethods | null = null;
/** Installs the Tensor methods of @wiregrad/autograd, once, as setAutogradHooks (a different second install throws ALREADY_INSTALLED). */
export function installAutogradMethods(m: AutogradTensorMethods): void {
  autogradMethods = installOnce('installAutogradMethods', 'the autograd tensor methods', autogradMethods, m);
}
function needAutograd(what: string): AutogradTensorMethods {
  if (!autogradMethods)
    throw new TensorError('UNSUPPORTED', `${what} needs @wiregrad/autograd; import it once in your program`);
  return autogradMethods;
}

/**
 * A strided view over a Storage. `shape`, `strides` and `offset` are in elements; views
 * (reshape, transpose, slice...) make a new Tensor over the same Storage.
 */
export class Tensor {
  readonly shape: readonly number[];
  readonly strides: readonly number[];
  readonly offset: number;
  readonly numel: number;

  /** Autograd state (PyTorch's AutogradMeta), owned by @wiregrad/autograd. */
  autogradMeta: unknown = null;
  private gradFnSlot: GradNode | null = null;
  private gradSlot: Tensor | null = null;
  /** whether `gradSlot` may be referenced outside the libraries (Note [Gradients nobody else saw]) */
  private gradSeen = false;
  private leafRequiresGrad = false;
  private released = false;

  constructor(
    readonly storage: Storage,
    shape: readonly number[],
    strides: readonly number[] = contiguousStrides(shape),
    offset = 0,
  ) {
    this.shape = internDims(shape);
    this.strides = internDims(strides);
    this.offset = offset;
    this.numel = numelOf(shape);
    // no holder yet: the first tensor over a new storage (a view or a saved tensor finds one)
    const fresh = storage.holds === 0;
    storage.retain();
    if (scope !== null) scope.push(this);
    if (fresh && unscopedDepth === 0) autogradMethods?.storageCreated?.(this);
  }

  /** A fresh contiguous tensor over `data` (no copy). */
  static fromTypedArray(data: TypedArray, shape: readonly number[], dtype: DType, device: Device = CPU): Tensor {
    if (device !== CPU) throw new TensorError('UNSUPPORTED', 'fromTypedArray builds cpu tensors; move them with .to()');
    return new Tensor(new Storage(CPU, dtype, data.length, data), shape);
  }

  /** A fresh zero-filled contiguous cpu tensor (its memory from the caching allocator). */
  static empty(shape: readonly number[], dtype: DType): Tensor {
    return new Tensor(Storage.allocate(dtype, numelOf(shape), true), shape);
  }

  /**
   * A fresh contiguous cpu tensor whose elements are whatever its reused memory held: the
   * one allocation function for kernels that write every element of their output.
   */
  static uninitialized(shape: readonly number[], dtype: DType): Tensor {
    return new Tensor(Storage.allocate(dtype, numelOf(shape), false), shape);
  }

  get dtype(): DType {
    return this.storage.dtype;
  }
  get device(): Device {
    return this.storage.device;
  }
  get ndim(): number {
    return this.shape.length;
  }
  get version(): number {
    return this.storage.version;
  }
  /** The accumulated gradient of a leaf (or of a non-leaf that called retainGrad()). */
  get grad(): Tensor | null {
    if (this.gradSlot === null && this.gradFnSlot !== null) autogradMethods?.readingNonLeafGrad?.(this);
    this.gradSeen ||= this.gradSlot !== null;
    return this.gradSlot;
  }
  set grad(g: Tensor | null) {
    this.#setGrad(g, g !== null);
  }

  #setGrad(g: Tensor | null, seen: boolean): void {
    // a gradient lives as long as its tensor, not as long as the tidy() that computed it
    if (g !== null) kept.add(g);
    this.gradSlot = g;
    this.gradSeen = seen;
  }

  static {
    gradSlots = {
      peek: (t) => t.gradSlot,
      setUnseen: (t, g) => t.#setGrad(g, false),
      dropUnseen: (t) => {
        const g = t.gradSlot;
        if (g !== null && !t.gradSeen) g.dispose();
        t.#setGrad(null, false);
      },
    };
  }

  /** PyTorch's size(): the shape, or the size of dim `dim` (a negative dim counts from the end). */
  size(): readonly number[];
  size(dim: number): number;
  size(dim?: number): readonly number[] | number {
    if (dim === undefined) return this.shape;
    if (this.ndim === 0)
      throw new TensorError('INVALID_DIM', `dimension specified as ${dim} but tensor has no dimensions`);
    return this.shape[normalizeDim(dim, this.ndim)]!;
  }

  /** PyTorch's dim(): the number of dimensions (the `ndim` property). */
  dim(): number {
    return this.shape.length;
  }

  /** The node that computed this tensor; null for leaves. @wiregrad/autograd may regenerate a stale view's. */
  get gradFn(): GradNode | null {
    const resolve = autogradMethods?.resolveGradFn;
    return resolve ? resolve(this, this.gradFnSlot) : this.gradFnSlot;
  }
  set gradFn(node: GradNode | null) {
    this.gradFnSlot = node;
  }

  /** A leaf that requires grad (a parameter), read from the slots without asking autograd (tidy() uses it). */
  get isLeafRequiringGrad(): boolean {
    return this.gradFnSlot === null && this.leafRequiresGrad;
  }

  get isLeaf(): boolean {
    return this.gradFn === null;
  }

  get requiresGrad(): boolean {
    return this.gradFn !== null || this.leafRequiresGrad;
  }
  set requiresGrad(value: boolean) {
    if (this.gradFn !== null) {
      if (value) return;
      throw new TensorError(
        'INVALID_ARGUMENT',
        "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().",
      );
    }
    if (value && !isFloatingPoint(this.dtype)) {
      throw new TensorError(
        'DTYPE_MISMATCH',
        `only Tensors of floating point dtype can require gradients (got ${this.dtype})`,
      );
    }
    autogradMethods?.checkSetRequiresGrad?.(this, value);
    this.leafRequiresGrad = value;
  }

  /** Sets `requiresGrad` (true by default) and returns this tensor, as PyTorch's requires_grad_(). */
  requiresGrad_(requiresGrad = true): this {
    this.requiresGrad = requiresGrad;
    return this;
  }

  /** Whether this tensor was made under inferenceMode (PyTorch's is_inference()); false without @wiregrad/autograd. */
  isInference(): boolean {
    return autogradMethods?.isInference?.(this) ?? false;
  }

  isContiguous(): boolean {
    let expected = 1;
    for (let d = this.shape.length - 1; d >= 0; d--) {
      const size = this.shape[d]!;
      if (size !== 1 && this.strides[d] !== expected) return false;
      expected *= size;
    }
    return true;
  }

  /**
   * Releases this tensor's hold on its storage (once; later calls do nothing). The memory is
   * freed, or cached for reuse, when nothing else holds it: no other view, saved tensor or
   * pending send (Note [Releasing storages]); from then on any use throws DISPOSED.
   */
  dispose(): void {
    if (this.released) return;
    this.released = true;
    this.storage.release();
  }

  /** `using t = x.exp()` disposes t at the end of the block. */
  /** (Note [Disposable in the published types]) */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** Whether dispose() was called on this tensor (its storage may still be alive through other holders). */
  get isDisposed(): boolean {
    return this.released;
  }

  backward(gradient?: Tensor, opts: BackwardOptions = {}): void {
    needAutograd('backward()').backward(this, gradient, opts);
  }
  backwardAsync(gradient?: Tensor, opts: BackwardOptions = {}): Promise<void> {
    return needAutograd('backwardAsync()').backwardAsync(this, gradient, opts);
  }
  registerHook(fn: (grad: Tensor) => Tensor | void): RemovableHandle {
    return needAutograd('registerHook()').registerHook(this, fn);
  }
  retainGrad(): void {
    needAutograd('retainGrad()').retainGrad(this);
  }
  get retainsGrad(): boolean {
    return autogradMethods?.retainsGrad(this) ?? false;
  }
  registerPostAccumulateGradHook(fn: (param: Tensor) => void): RemovableHandle {
    return needAutograd('registerPostAccumulateGradHook()').registerPostAccumulateGradHook(this, fn);
  }
}
