import { type Tensor, setTensorScope } from '@wiregrad/tensor/internal';
import type { GraphTask } from './graphTask.js';
import type { Grads, Node } from './node.js';

/**
 * Note [Gradients the engine owns]
 * PyTorch frees a gradient when its last reference goes; JS cannot count references, so the
 * engine releases (dispose()) the gradients it knows nobody else can reach:
 * - the tensors a built-in node (KernelNode) creates while it runs, except its outputs
 *   (the temporaries of its formula: a broadcast product before its sum, a cast...), at once;
 * - its outputs and the InputBuffer sums, once every node they were handed to has run.
 * A count per gradient tracks the InputBuffer slots holding it (a gradient passed through,
 * as AddBackward does, sits in several). Only nodes whose use of a gradient is known take
 * part: KernelNodes, custom Functions that declare it (Note [Functions whose gradients the
 * engine owns]) and AccumulateGrad (which copies or adds it into `.grad`, or takes it over
 * when it is the only holder). A gradient that reaches a node with hooks, any other custom
 * Function, CopySlices, a distributed send or a grad() capture escapes: the engine never
 * releases it. Nothing is owned under createGraph (the gradients are part of a new graph)
 * or in a pass that captures gradients (grad(), the distributed engine); backward(inputs=)
 * only restricts which nodes run, so it owns and steals as backward() does.
 */
export class OwnedGrads {
  /** owned gradient -> InputBuffer slots holding it */
  private readonly slots = new Map<Tensor, number>();

  /** Whether `fn`'s inputs are released after it ran (a built-in node without hooks). */
  static knowsUse(fn: Node): boolean {
    return fn.gradUse !== 'unknown' && !fn.hasHooks;
  }

  /** Runs a node's call, collecting the tensors it creates when it is a formula (KernelNode) without hooks. */
  static collect<T>(fn: Node, call: () => T): { result: T; created: Tensor[] | null } {
    if (fn.gradUse !== 'formula' || !OwnedGrads.knowsUse(fn)) return { result: call(), created: null };
    const created: Tensor[] = [];
    const outer = setTensorScope(created);
    try {
      return { result: call(), created };
    } finally {
      setTensorScope(outer);
      // what stays alive belongs to the enclosing tidy() too, as if the engine had not looked
      if (outer !== null) for (const t of created) if (!t.isDisposed) outer.push(t);
    }
  }

  /** After a KernelNode ran: its temporaries are released, its outputs become owned (no slot yet). */
  adopt(created: readonly Tensor[], outputs: Grads): void {
    for (const t of created) {
      if (outputs.includes(t)) this.slots.set(t, 0);
      else t.dispose();
    }
  }

  /** A new tensor the engine made (an InputBuffer sum), in one slot. */
  adoptSum(t: Tensor): void {
    this.slots.set(t, 1);
  }

  /** `t` was put into an InputBuffer slot. */
  enter(t: Tensor): void {
    const n = this.slots.get(t);
    if (n !== undefined) this.slots.set(t, n + 1);
  }

  /** `t` left a slot (summed, or consumed by a node that knows its use); the last slot releases it. */
  leave(t: Tensor): void {
    const n = this.slots.get(t);
    if (n === undefined) return;
    if (n > 1) {
      this.slots.set(t, n - 1);
      return;
    }
    this.slots.delete(t);
    t.dispose();
  }

  /** Owned outputs that went into no slot (their edge leads nowhere) are released. */
  settle(outputs: Grads): void {
    for (const t of outputs) if (t && this.slots.get(t) === 0) this.leave(t);
  }

  /** `t` escapes (a hook, a custom node, a capture may keep it): never released by the engine. */
  escape(t: Tensor): void {
    this.slots.delete(t);
  }

  /**
   * Whether `t` may be added into `old` in place: the engine owns `old`, one slot holds it and
   * nothing else its storage, and the sum has its shape, dtype and device.
   */
  canAccumulateInto(old: Tensor, t: Tensor): boolean {
    return (
      this.slots.get(old) === 1 &&
      old.storage.holds === 1 &&
      old.storage !== t.storage &&
      old.offset === 0 &&
      old.storage.length === old.numel &&
      old.isContiguous() &&
      !old.requiresGrad &&
      old.dtype === t.dtype &&
      old.device === t.device &&
      old.shape.length === t.shape.length &&
      old.shape.every((d, i) => d === t.shape[i])
    );
  }

  /** AccumulateGrad may take `t` over as `.grad` when the engine owns it and only one slot holds it. */
  takeOver(t: Tensor): boolean {
    if (this.slots.get(t) !== 1) return false;
    this.slots.delete(t);
    return true;
  }
}

/**
 * Note [Gradients a hook made]
 * PyTorch's AccumulateGrad steals the incoming gradient whenever its reference count says only
 * the engine holds it, and that includes a gradient a tensor pre-hook or node pre-hook of the
 * AccumulateGrad returned in place of the one it got: so `.grad` IS that tensor, the
 * post-accumulate-grad hooks update it in place, and the node's post-hooks see the update in
 * their gradOutputs. JS has no reference counts: a tensor made while the node's pre-hooks ran
 * and handed on as its input counts as held by the engine alone (callFunction marks it; a hook
 * that also keeps what it returns sees it become `.grad`, where PyTorch would copy it).
 */
const hookMade = new WeakSet<Tensor>();

/** `t` was made by an AccumulateGrad's pre-hooks and handed on as its input (Note [Gradients a hook made]). */
export function markHookMade(t: Tensor): void {
  hookMade.add(t);
}

/** Whether AccumulateGrad may take `t` over as a hook-made gradient; once only. */
export function takeHookMade(t: Tensor): boolean {
  return hookMade.delete(t);
}

const byTask = new WeakMap<GraphTask, OwnedGrads | null>();

/** The gradients `task` owns; null under createGraph or when it captures (Note [Gradients the engine owns]). */
export function ownedGradsOf(task: GraphTask | null): OwnedGrads | null {
  if (task === null) return null;
  let owned = byTask.get(task);
  if (owned === undefined) {
    owned = task.createGraph || task.capturedVars.length > 0 ? null : new OwnedGrads();
    byTask.set(task, owned);
  }
  return owned;
}
