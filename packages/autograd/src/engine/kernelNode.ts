import { type Attrs, type DType, type Device, type Storage, type Tensor, clone } from '@wiregrad/tensor';
import type { GradConfig, GradContext } from '../gradients/registry.js';
import { AutogradError } from '../errors.js';
import { GRAPH_FREED_MESSAGE, SavedVariable } from './savedVariable.js';
import { internMetadata, internTuple } from './interned.js';
import { Node, type Grads, type InputMetadata } from './node.js';

const NO_INFO: readonly never[] = Object.freeze([]);

/**
 * The backward node of one kernel call, e.g. `MulBackward0`; its rule is the kernel's
 * GradConfig, and the node itself is the rule's GradContext (no per-call closures).
 */
export class KernelNode extends Node implements GradContext {
  /** by input index; null when the rule saves no input (Note [Node memory]) */
  private savedInputs: (SavedVariable | null)[] | null = null;
  private savedOutputs: SavedVariable[] | null = null;
  private released = false;
  /** shape, dtype and device of each forward input (interned, Note [Node memory]) */
  private inputInfo: readonly InputMetadata[];

  constructor(
    private readonly config: GradConfig,
    readonly attrs: Attrs,
    inputs: readonly Tensor[],
  ) {
    super();
    const n = inputs.length;
    const info = new Array<InputMetadata>(n);
    for (let i = 0; i < n; i++) {
      const t = inputs[i]!;
      info[i] = internMetadata(t.shape, t.dtype, t.device);
    }
    this.inputInfo = internTuple(info);
    const save = config.saveInputs;
    if (save?.length) {
      const saved = new Array<SavedVariable | null>(n).fill(null);
      for (const i of save) saved[i] = new SavedVariable(inputs[i]!, false);
      this.savedInputs = saved;
    }
  }

  get inputShapes(): (readonly number[])[] {
    return this.inputInfo.map((m) => m.shape);
  }
  get inputDtypes(): DType[] {
    return this.inputInfo.map((m) => m.dtype);
  }
  get inputDevices(): Device[] {
    return this.inputInfo.map((m) => m.device);
  }

  /**
   * Before an in-place write into `storage` of this node's result (`x.op_(y)` is op(x, y) then
   * CopyInto, Note [In-place ops]), the inputs it saved from that storage are replaced by a
   * clone taken now, still attached to their graph: PyTorch's original_self for in-place ops.
   */
  keepSavedInputsOf(storage: Storage): void {
    const saved = this.savedInputs;
    saved?.forEach((s, i) => {
      const t = s?.peek();
      if (t?.storage !== storage) return;
      saved[i] = new SavedVariable(clone(t), false);
      s!.release();
    });
  }

  saveOutputs(outputs: readonly Tensor[]): void {
    if (this.config.saveOutputs) this.savedOutputs = outputs.map((t) => new SavedVariable(t, true));
  }

  /** PyTorch's node name: `<Kernel>Backward0`, or the in-place op's own (`x.add_(1)`: AddBackward0, see Note [In-place ops]). */
  name(): string {
    return (this.attrs.gradFnName as string | undefined) ?? `${this.config.kernelName}Backward0`;
  }

  input(i: number): Tensor {
    if (this.released) throw new AutogradError('GRAPH_FREED', GRAPH_FREED_MESSAGE);
    const s = this.savedInputs?.[i];
    if (!s) throw new AutogradError('INVALID_STATE', `${this.name()}: input ${i} was not saved for backward`);
    return s.unpack(this);
  }

  output(i = 0): Tensor {
    if (this.released) throw new AutogradError('GRAPH_FREED', GRAPH_FREED_MESSAGE);
    const s = this.savedOutputs?.[i];
    if (!s) throw new AutogradError('INVALID_STATE', `${this.name()}: output ${i} was not saved for backward`);
    return s.unpack(this);
  }

  needsInputGrad(i: number): boolean {
    return this.taskShouldComputeOutput(i);
  }

  apply(grads: Grads): Grads {
    if (this.released) throw new AutogradError('GRAPH_FREED', GRAPH_FREED_MESSAGE);
    // no gradient arrived (e.g. the old value of a tensor overwritten in place): none flows on
    if (grads.every((g) => g === null)) return this.nextEdges.map(() => null);
    return this.config.gradFunc(grads, this);
  }

  override get gradUse(): 'formula' {
    return 'formula';
  }

  override releaseVariables(): void {
    if (!this.config.saveInputs?.length && !this.config.saveOutputs) return;
    this.released = true;
    for (const s of this.savedInputs ?? []) s?.release();
    for (const s of this.savedOutputs ?? []) s.release();
    // a released node only names itself and errors: it keeps its shell (Note [Node memory])
    this.savedInputs = null;
    this.savedOutputs = null;
    this.inputInfo = NO_INFO;
  }
}
