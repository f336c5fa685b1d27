import {
  AccumulateGrad,
  type Node,
  type Tensor,
  empty,
  copy_,
  narrow,
  noGrad,
  queueCallback,
  tensor,
} from '@wiregrad/autograd';
import { awaitInPass, dropGrad, peekGrad, setUnseenGrad } from '@wiregrad/autograd/internal';
import { allReduce } from '../collectives/allReduce.js';
import { ReduceOp } from '../collectives/reduceOp.js';
import { DistributedError } from '../errors.js';
import type { ProcessGroup } from '../processGroup.js';

interface Bucket {
  /** parameter indices, in the order their gradients are laid out in the flat buffer */
  params: number[];
  /** parameters of this bucket not ready yet in this pass */
  pending: number;
  /** the all-reduce and write-back of this pass, once launched */
  done: Promise<void> | null;
  /** the bucket's flat buffer, made by its first pass and reused by the next ones (as PyTorch's bucket views) */
  flat: Tensor | null;
}

/**
 * Note [Reducer]
 * PyTorch's Reducer (reducer.cpp). A forward with gradient sync on arms it (prepareForBackward;
 * with findUnusedParameters it also walks the graph from the outputs to find the parameters
 * it cannot reach). Backward: DDP's sink node runs first and begins the pass (the unreachable
 * parameters are marked ready at once); each parameter's post-accumulate-grad hook marks it
 * ready; a bucket whose parameters are all ready is flattened and all-reduced (AVG), and
 * buckets launch strictly in bucket order, so every rank issues the same collectives in the
 * same order (Note [Collective mailbox]); each bucket writes its averaged values back into
 * `.grad` as soon as its all-reduce completes, while backward goes on. When the last bucket has
 * launched, the reducer waits for them inside the running pass (Note [Awaiting in a pass]), so
 * backwardAsync() resolves only once every bucket is averaged; a queueCallback callback then checks that every bucket was
 * reduced (else PyTorch's "Expected to have finished reduction" error). With
 * findUnusedParameters each bucket carries one more value per parameter, 1 where the rank used
 * it: a parameter no rank used keeps its `.grad` as it was (null), as in PyTorch.
 *
 * Note [Gradients as bucket views]
 * PyTorch's gradient_as_bucket_view: with `gradientAsBucketView` each averaged `.grad` is a view
 * of its bucket's flat buffer instead of a copy written back into the gradient, so the
 * write-back pass and a second copy of every gradient go away. A gradient that is already its
 * slot's view (kept from the last pass, zeroed in place by `zeroGrad(false)` and accumulated into
 * by the engine) is not copied into the bucket either; one that is not (a fresh gradient after
 * `zeroGrad()` set it to none, or one the user set) is copied in, and after the all-reduce the
 * view replaces it (disposed when nobody else saw it: Note [Gradients nobody else saw] in
 * @wiregrad/tensor). A rank that did not use a parameter contributes zeros to its slot: if that
 * parameter's gradient was the slot's view, it gets a copy of its values first, so a parameter
 * no rank used keeps its gradient as it was, as without views. As in PyTorch, a gradient held
 * across a synced backward changes with the next one: it is the bucket.
 */
export class Reducer {
  private readonly buckets: Bucket[];
  private readonly bucketOf: number[] = [];
  private armed = false;
  private nextBucket = 0;
  private readonly ready = new Set<number>();
  private reachable: Set<Tensor> | null = null;

  constructor(
    private readonly params: readonly Tensor[],
    assignment: number[][],
    private readonly group: ProcessGroup,
    private readonly findUnusedParameters: boolean,
    /** runs after every bucket is averaged, before backwardAsync resolves (buffer broadcast) */
    private readonly afterReduction: () => Promise<void>,
    /** each averaged gradient a view of its bucket (Note [Gradients as bucket views]) */
    private readonly gradientAsBucketView = false,
  ) {
    this.buckets = assignment.map((params) => ({ params, pending: params.length, done: null, flat: null }));
    assignment.forEach((ps, b) => ps.forEach((i) => (this.bucketOf[i] = b)));
    params.forEach((p, i) => p.registerPostAccumulateGradHook(() => this.markReady(i)));
  }

  /** Arms the reducer for the backward of a forward whose outputs are `outputs`. */
  prepareForBackward(outputs: readonly Tensor[]): void {
    this.armed = true;
    this.nextBucket = 0;
    this.ready.clear();
    for (const b of this.buckets) {
      b.pending = b.params.length;
      b.done = null;
    }
    this.reachable = this.findUnusedParameters ? reachableParameters(outputs) : null;
  }

  /** The sink ran: a synced backward pass began (Note [DDP needs backwardAsync]). */
  beginBackward(): void {
    if (!this.armed) return;
    queueCallback(() => this.checkFinished());
    if (this.reachable) this.params.forEach((p, i) => this.reachable!.has(p) || this.markReady(i));
  }

  private markReady(i: number): void {
    if (!this.armed || this.ready.has(i)) return;
    this.ready.add(i);
    this.buckets[this.bucketOf[i]!]!.pending--;
    while (this.nextBucket < this.buckets.length && this.buckets[this.nextBucket]!.pending === 0)
      this.launch(this.buckets[this.nextBucket++]!);
    if (this.nextBucket === this.buckets.length) this.joinPass();
  }

  private launch(bucket: Bucket): void {
    const ps = bucket.params.map((i) => this.params[i]!);
    // a parameter this pass did not reach contributes zeros, whatever its .grad holds (as PyTorch)
    const used = ps.map((p) => (!this.reachable || this.reachable.has(p) ? 1 : 0));
    // the gradients are read without being seen, and the views made here are released once
    // copied, so zeroGrad() can free them at once (Note [Gradients nobody else saw] in @wiregrad/tensor)
    const grads = ps.map((p, k) => (used[k] ? peekGrad(p) : null));
    const offsets: number[] = [];
    let total = 0;
    for (const p of ps) {
      offsets.push(total);
      total += p.numel;
    }
    const flat = (bucket.flat ??= empty([total + (this.findUnusedParameters ? ps.length : 0)], {
      dtype: ps[0]!.dtype,
    }));
    noGrad(() => {
      ps.forEach((p, k) => {
        const at = offsets[k]!;
        const g = grads[k];
        if (this.gradientAsBucketView) {
          // a slot this rank leaves at zero must not take a gradient with it (Note [Gradients as bucket views])
          const held = peekGrad(p);
          if (!used[k] && held && isSlot(held, flat, at)) setUnseenGrad(p, held.clone());
          if (g && isSlot(g, flat, at)) return;
        }
        // (a 1-d gradient is its own reshape)
        const part = g?.reshape([-1]) ?? null;
        intoSlot(flat, at, p.numel, part);
        if (part && part !== g) part.dispose();
      });
      if (this.findUnusedParameters) {
        const flags = tensor(used, { dtype: ps[0]!.dtype });
        intoSlot(flat, total, ps.length, flags);
        flags.dispose();
      }
    });
    bucket.done = allReduce(flat, { op: ReduceOp.AVG, group: this.group }).then(() =>
      noGrad(() => {
        ps.forEach((p, k) => {
          const at = offsets[k]!;
          if (this.findUnusedParameters && valueAt(flat, total + k) === 0) return; // no rank used it
          const g = peekGrad(p);
          if (this.gradientAsBucketView) {
            if (g && isSlot(g, flat, at)) return;
            dropGrad(p);
            setUnseenGrad(p, slotView(flat, at, p));
            return;
          }
          const avg = slotView(flat, at, p);
          if (g) copy_(g, avg);
          else setUnseenGrad(p, avg.clone());
          releaseView(avg, flat);
        });
      }),
    );
    bucket.done.catch(() => {}); // awaited in the pass (joinPass); a pass that failed earlier must not crash the process
  }

  /** Every bucket launched: backward completes only when they are all averaged (Note [Reducer]). */
  private joinPass(): void {
    awaitInPass('DistributedDataParallelReducerWait', async () => {
      await Promise.all(this.buckets.map((b) => b.done));
      this.armed = false;
      await this.afterReduction();
    });
  }

  private checkFinished(): void {
    if (this.nextBucket === this.buckets.length) return;
    this.armed = false;
    const missing = this.params.map((_, i) => i).filter((i) => !this.ready.has(i));
    throw new DistributedError(
      'UNFINISHED_REDUCTION',
      'Expected to have finished reduction in the prior iteration before starting a new one. This error indicates ' +
        'that your module has parameters that were not used in producing loss. You can enable unused parameter ' +
        'detection by passing { findUnusedParameters: true } to DistributedDataParallel, and by making sure all ' +
        `forward function outputs participate in calculating loss. Parameter indices which did not receive grad: ${missing.join(' ')}`,
    );
  }
}

/**
 * Writes `part` (1-d, `numel` values; null: zeros) into `flat` at `at`. The flat buffer is the
 * bucket's own memory (never a gradient's: zeroGrad() may free those), made by its first pass
 * and filled in place by the next ones (a fresh buffer of megabytes each pass paid its page
 * faults every step); the previous pass's all-reduce is over by then: backwardAsync resolved
 * only after it (Note [Reducer]).
 */
function intoSlot(flat: Tensor, at: number, numel: number, part: Tensor | null): void {
  const slot = narrow(flat, 0, at, numel);
  if (part) copy_(slot, part);
  else slot.zero_();
  releaseView(slot, flat);
}

/** Whether `g` is the contiguous view of `flat` at `at` that Note [Gradients as bucket views] makes. */
function isSlot(g: Tensor, flat: Tensor, at: number): boolean {
  return g.storage === flat.storage && g.offset === flat.offset + at && g.isContiguous();
}

/** `p`'s slot of `flat` at `at`, shaped as `p`. */
function slotView(flat: Tensor, at: number, p: Tensor): Tensor {
  const slot = narrow(flat, 0, at, p.numel);
  const shaped = slot.reshape([...p.shape]);
  if (shaped !== slot) releaseView(slot, flat);
  return shaped;
}

/** Disposes `view`, made of `base` here, unless it is `base` itself (a view over all of it may be). */
function releaseView(view: Tensor, base: Tensor): void {
  if (view !== base) view.dispose();
}

/** Element `i` of the 1-d `t`. */
function valueAt(t: Tensor, i: number): number {
  const one = narrow(t, 0, i, 1);
  const v = one.item();
  releaseView(one, t);
  return v;
}

/** The leaves the graph of `outputs` reaches (through AccumulateGrad nodes). */
function reachableParameters(outputs: readonly Tensor[]): Set<Tensor> {
  const seen = new Set<Node>();
  const found = new Set<Tensor>();
  const stack: Node[] = [];
  for (const o of outputs) if (o.gradFn) stack.push(o.gradFn as Node);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    if (node instanceof AccumulateGrad) found.add(node.variable);
    for (const e of node.nextEdges) if (e.node) stack.push(e.node);
  }
  return found;
}
