import type { DType, Device, Tensor } from '@wiregrad/tensor';
import { AutogradError } from '../errors.js';
import type { Edge } from './edge.js';
import { currentGraphTask } from './threadState.js';

export type Grads = (Tensor | null)[];
export type TensorPreHook = (grad: Tensor) => Tensor | void;
export type PreHook = (gradOutputs: Grads) => Grads | void;
export type PostHook = (gradInputs: Grads, gradOutputs: Grads) => Grads | void;

export interface InputMetadata {
  shape: readonly number[];
  dtype: DType;
  device: Device;
}

export interface RemovableHandle {
  remove(): void;
}

let nextSequenceNr = 0;

function addHook<T>(list: T[], hook: T): RemovableHandle {
  list.push(hook);
  return {
    remove: () => {
      const i = list.indexOf(hook);
      if (i >= 0) list.splice(i, 1);
    },
  };
}

/**
 * Note [Topological Number]
 * A node's topologicalNr is the length of the longest path from it to any leaf: leaves
 * (AccumulateGrad) have 0 and a parent has max(children) + 1, so a path X -> Y implies
 * topo(X) > topo(Y). The engine prunes every node whose number is below the smallest one
 * among the requested outputs: it cannot reach them. Once a node has a parent its number
 * is frozen, because the parent's number was computed from it.
 *
 * PyTorch's Node: `apply` maps the gradients of its forward outputs (its inputs, one per
 * inputMetadata entry) to the gradients of its forward inputs (one per next edge).
 */
export abstract class Node {
  readonly sequenceNr: number;
  private topoNr = 0;
  private hasParent = false;
  private edges: Edge[] = [];
  readonly inputMetadata: InputMetadata[] = [];
  readonly preHooks: PreHook[] = [];
  readonly postHooks: PostHook[] = [];
  /** tensor hooks by input index (the output of the forward op they were registered on) */
  readonly tensorPreHooks = new Map<number, TensorPreHook[]>();
  readonly retainsGradHooks = new Map<number, TensorPreHook>();
  /** where in user code this node was created (anomaly mode only) */
  forwardTrace: string | undefined;

  constructor(sequenceNr: number = nextSequenceNr++) {
    this.sequenceNr = sequenceNr;
  }

  /** Synchronous for every built-in node; a node may return a Promise when run by backwardAsync(). */
  abstract apply(grads: Grads): Grads | Promise<Grads>;

  /** e.g. `MulBackward0` */
  abstract name(): string;

  get topologicalNr(): number {
    return this.topoNr;
  }

  get nextEdges(): readonly Edge[] {
    return this.edges;
  }

  get numInputs(): number {
    return this.inputMetadata.length;
  }

  get numOutputs(): number {
    return this.edges.length;
  }

  /** [node, inputNr] per next edge, like PyTorch's next_functions. */
  get nextFunctions(): [Node | null, number][] {
    return this.edges.map((e) => [e.node, e.inputNr]);
  }

  setNextEdges(edges: Edge[]): void {
    this.edges = [];
    for (const e of edges) this.addNextEdge(e);
  }

  addNextEdge(edge: Edge): void {
    const child = edge.node;
    if (child) {
      if (child.topoNr >= this.topoNr) {
        if (this.hasParent) {
          throw new AutogradError('INVALID_STATE', "Cannot update a node's topological_nr after it already has a parent. If we allow this, we can no longer guarantee that a parent's topo_nr is always greater than those of all its children");
        }
        this.topoNr = child.topoNr + 1;
      }
      child.hasParent = true;
    }
    this.edges.push(edge);
  }

  addInputMetadata(t: Tensor): number {
    this.inputMetadata.push({ shape: t.shape, dtype: t.dtype, device: t.device });
    return this.inputMetadata.length - 1;
  }

  /** Whether the running GraphTask needs the gradient of forward input `i` (PyTorch's task_should_compute_output). */
  taskShouldComputeOutput(i: number): boolean {
    const edge = this.edges[i];
    if (!edge?.node) return false;
    const task = currentGraphTask();
    if (!task || task.execInfo.size === 0) return true;
    return task.execInfo.get(edge.node)?.shouldExecute() ?? false;
  }

  registerHook(hook: PostHook): RemovableHandle {
    return addHook(this.postHooks, hook);
  }

  registerPrehook(hook: PreHook): RemovableHandle {
    return addHook(this.preHooks, hook);
  }

  registerTensorPreHook(inputNr: number, hook: TensorPreHook): RemovableHandle {
    let list = this.tensorPreHooks.get(inputNr);
    if (!list) this.tensorPreHooks.set(inputNr, (list = []));
    return addHook(list, hook);
  }

  /**
   * How the node uses the gradients it gets (Note [Gradients the engine owns]): 'formula'
   * computes new ones from them (KernelNode), 'accumulate' copies or adds them into `.grad`;
   * any other node may keep them ('unknown'). A getter, so nodes carry no field for it.
   */
  get gradUse(): 'formula' | 'accumulate' | 'unknown' {
    return 'unknown';
  }

  /** Frees what the node saved for backward; later use gives the "second time" error. */
  releaseVariables(): void {}
}

export const MAX_SEQUENCE_NR = Number.MAX_SAFE_INTEGER;
