import type { Attrs, DType, Device, Tensor } from '@wiregrad/tensor';
import type { GradConfig, GradContext } from '../gradients/registry.js';
import { AutogradError } from '../errors.js';
import { GRAPH_FREED_MESSAGE, SavedVariable } from './savedVariable.js';
import { Node, type Grads } from './node.js';

/** The backward node of one kernel call, e.g. `MulBackward0`; its rule is the kernel's GradConfig. */
export class KernelNode extends Node {
  private savedInputs: (SavedVariable | null)[] = [];
  private savedOutputs: SavedVariable[] = [];
  private released = false;
  private readonly inputShapes: (readonly number[])[];
  private readonly inputDtypes: DType[];
  private readonly inputDevices: Device[];

  constructor(
    private readonly config: GradConfig,
    private readonly attrs: Attrs,
    inputs: readonly Tensor[],
  ) {
    super();
    this.inputShapes = inputs.map((t) => t.shape);
    this.inputDtypes = inputs.map((t) => t.dtype);
    this.inputDevices = inputs.map((t) => t.device);
    const save = new Set(config.saveInputs ?? []);
    this.savedInputs = inputs.map((t, i) => (save.has(i) ? new SavedVariable(t) : null));
  }

  saveOutputs(outputs: readonly Tensor[]): void {
    if (this.config.saveOutputs) this.savedOutputs = outputs.map((t) => new SavedVariable(t));
  }

  name(): string {
    return `${this.config.kernelName}Backward0`;
  }

  apply(grads: Grads): Grads {
    if (this.released) throw new AutogradError('GRAPH_FREED', GRAPH_FREED_MESSAGE);
    // no gradient arrived (e.g. the old value of a tensor overwritten in place): none flows on
    if (grads.every((g) => g === null)) return this.nextEdges.map(() => null);
    const ctx: GradContext = {
      input: (i) => {
        const s = this.savedInputs[i];
        if (!s) throw new AutogradError('INVALID_STATE', `${this.name()}: input ${i} was not saved for backward`);
        return s.unpack(this);
      },
      output: (i = 0) => {
        const s = this.savedOutputs[i];
        if (!s) throw new AutogradError('INVALID_STATE', `${this.name()}: output ${i} was not saved for backward`);
        return s.unpack(this);
      },
      attrs: this.attrs,
      inputShapes: this.inputShapes,
      inputDtypes: this.inputDtypes,
      inputDevices: this.inputDevices,
      needsInputGrad: (i) => this.taskShouldComputeOutput(i),
    };
    return this.config.gradFunc(grads, ctx);
  }

  override releaseVariables(): void {
    if (!this.config.saveInputs?.length && !this.config.saveOutputs) return;
    this.released = true;
    for (const s of this.savedInputs) s?.release();
    for (const s of this.savedOutputs) s.release();
  }
}
