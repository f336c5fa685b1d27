import type { DType, Device, Tensor } from '@wiregrad/tensor';
import { AutogradError } from '../errors.js';
import { AnomalyMetadata } from './anomalyMetadata.js';
import type { Edge } from './edge.js';
import { internMetadata, internTuple } from './interned.js';
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

interface HookLists {
  pre: PreHook[];
  post: PostHook[];
  tensorPre: Map<number, TensorPreHook[]>;
  retainsGrad: Map<number, TensorPreHook>;
}

/**
 * Note [Node memory]
 * A graph holds one node per op, alive until the graph is dropped (after backward() only
 * its saved tensors go), so a node carries nothing it does not need: hook lists are made on
 * the first hook, edge and metadata lists are exact-size arrays (an array grown by push
 * from empty gets room for 17), nodes without edges or hooks share frozen empty ones, input
 * descriptions are interned (interned.ts), and a KernelNode drops its saved tensors once released.
 */
const NO_EDGES: readonly Edge[] = Object.freeze([]);
const NO_METADATA: readonly InputMetadata[] = Object.freeze([]);
const NO_HOOKS: readonly never[] = Object.freeze([]);
const NO_HOOK_MAP: ReadonlyMap<number, never> = new Map<number, never>();

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
  private edges: readonly Edge[] = NO_EDGES;
  private metadata: readonly InputMetadata[] = NO_METADATA;
  /** See Note [Node memory]: made on the first hook */
  private hookLists: HookLists | null = null;
  /** where in user code this node was created, and under which node (anomaly mode only, See Note [Anomaly metadata]) */
  readonly anomalyMetadata: AnomalyMetadata | null = AnomalyMetadata.capture();

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

  /** What each input (a forward output) is: its gradient must match it (validateOutputs). */
  get inputMetadata(): readonly InputMetadata[] {
    return this.metadata;
  }

  get numInputs(): number {
    return this.metadata.length;
  }

  get preHooks(): readonly PreHook[] {
    return this.hookLists?.pre ?? NO_HOOKS;
  }

  get postHooks(): readonly PostHook[] {
    return this.hookLists?.post ?? NO_HOOKS;
  }

  /** tensor hooks by input index (the output of the forward op they were registered on) */
  get tensorPreHooks(): ReadonlyMap<number, TensorPreHook[]> {
    return this.hookLists?.tensorPre ?? NO_HOOK_MAP;
  }

  get retainsGradHooks(): ReadonlyMap<number, TensorPreHook> {
    return this.hookLists?.retainsGrad ?? NO_HOOK_MAP;
  }

  /** Whether any hook is registered (removed hooks leave empty lists behind). */
  get hasHooks(): boolean {
    const h = this.hookLists;
    return h !== null && (h.pre.length > 0 || h.post.length > 0 || h.tensorPre.size > 0 || h.retainsGrad.size > 0);
  }

  private hooks(): HookLists {
    return (this.hookLists ??= { pre: [], post: [], tensorPre: new Map(), retainsGrad: new Map() });
  }

  get numOutputs(): number {
    return this.edges.length;
  }

  /** [node, inputNr] per next edge, like PyTorch's next_functions. */
  get nextFunctions(): [Node | null, number][] {
    return this.edges.map((e) => [e.node, e.inputNr]);
  }

  setNextEdges(edges: readonly Edge[]): void {
    this.edges = NO_EDGES;
    for (const e of edges) this.checkEdge(e);
    // an exact-size copy: growing by push gives an array room for 17 (Note [Node memory])
    this.edges = edges.slice();
  }

  addNextEdge(edge: Edge): void {
    this.checkEdge(edge);
    this.edges = this.edges.concat(edge);
  }

  private checkEdge(edge: Edge): void {
    const child = edge.node;
    if (child) {
      if (child.topoNr >= this.topoNr) {
        if (this.hasParent) {
          throw new AutogradError(
            'INVALID_STATE',
            "Cannot update a node's topological_nr after it already has a parent. If we allow this, we can no longer guarantee that a parent's topo_nr is always greater than those of all its children",
          );
        }
        this.topoNr = child.topoNr + 1;
      }
      child.hasParent = true;
    }
  }

  addInputMetadata(t: Tensor): number {
    this.metadata = internTuple(this.metadata.concat(internMetadata(t.shape, t.dtype, t.device)));
    return this.metadata.length - 1;
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
    return addHook(this.hooks().post, hook);
  }

  registerPrehook(hook: PreHook): RemovableHandle {
    return addHook(this.hooks().pre, hook);
  }

  registerTensorPreHook(inputNr: number, hook: TensorPreHook): RemovableHandle {
    const map = this.hooks().tensorPre;
    let list = map.get(inputNr);
    if (!list) map.set(inputNr, (list = []));
    return addHook(list, hook);
  }

  /** The hook retainGrad() puts on input `inputNr` (run after the tensor pre-hooks). */
  setRetainsGradHook(inputNr: number, hook: TensorPreHook): void {
    this.hooks().retainsGrad.set(inputNr, hook);
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
