import {
  type Tensor,
  indexAdd,
  indexSelect,
  isFloatingPoint,
  maskedFill,
  ones,
  reshape,
  tensor,
  zeros,
} from '@wiregrad/tensor';
import { peekMeta } from './autogradMeta.js';
import { AutogradError } from '../errors.js';
import { gradientEdge, setHistory } from './gradientEdge.js';
import type { KernelNode } from './kernelNode.js';
import { Node, type Grads } from './node.js';

/**
 * Note [In-place on views]
 * Writing in place into a view V of a base B changes B, so B's history must change too
 * (PyTorch's rebase_history with CopySlices, functions/tensor.cpp): B gets a CopySlices node
 * wrapping the in-place kernel's own node `fn`. Its backward takes B's gradient, hands the
 * slice V covers to `fn` (whose first result is the gradient of V's old value, null for an
 * overwrite) and returns B's gradient with that slice replaced, plus `fn`'s gradients for
 * the other inputs (the values written). V itself becomes a view of the new B
 * (AsStridedBackward0). The slice is an index list into B's elements, so both backward rules
 * are tensor ops (indexSelect / indexAdd / maskedFill) and differentiable again.
 * B must be contiguous (every base a kernel allocates is).
 *
 * Note [Views after in-place writes]
 * Other views of B taken before the write still hold their old history, which would miss the
 * write. Like PyTorch (a view's grad_fn checks its attr_version), a view remembers the
 * storage version its history was set at; reading the gradFn of a view whose storage has
 * been written since regenerates it as AsStridedBackward0 of the base's current history.
 */

/**
 * Note [Multi-output views]
 * split (and chunk) and unbind cut all their pieces with one kernel, Split or Unbind, so the
 * pieces share one KernelNode, as PyTorch's SplitBackward0, SplitWithSizesBackward0 and
 * UnbindBackward0: piece i is its output i. Its rule builds the input's gradient once, from
 * every piece's gradient, a piece that got none counting as zeros (PyTorch's split_backward);
 * and since the pieces are outputs of one node, a tensor hook on one piece runs with null when
 * only a sibling got a gradient (See Note [Tensor hooks]). CopySlices cannot rebase one output
 * of such a node, so, like PyTorch (CreationMeta::MULTI_OUTPUT_NODE, handle_view_on_rebase),
 * an in-place write into a piece made with grad mode on, or into a view of one, is refused
 * with PyTorch's message when grad mode is on and the write involves a tensor that requires
 * grad; and once its storage was written by another route (the base, or another piece under
 * noGrad), reading the piece's gradFn is refused. The pieces stay views of the input.
 */
export function checkMultiOutputView(view: Tensor, node: Node | null, indirect: boolean): void {
  const meta = peekMeta(view);
  if (!meta?.multiOutputView) return;
  const modified = indirect ? 'its base or another view of its base has been' : 'is being';
  const header = node
    ? `Output ${meta.outputNr} of ${node.name()} is a view and ${modified} modified inplace.`
    : `A view was created in no_grad mode and ${modified} modified inplace with grad mode enabled.`;
  throw new AutogradError(
    'MULTI_OUTPUT_VIEW_INPLACE',
    `${header} This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.`,
  );
}

function regionOf(base: Tensor, view: Tensor): Tensor {
  if (!base.isContiguous()) {
    throw new AutogradError(
      'NOT_IMPLEMENTED',
      'in-place writes into a view of a non-contiguous base are not supported; write into a clone() instead',
    );
  }
  const index = new Int32Array(view.numel);
  const counter = new Array<number>(view.ndim).fill(0);
  for (let k = 0; k < view.numel; k++) {
    let off = view.offset - base.offset;
    for (let d = 0; d < view.ndim; d++) off += counter[d]! * view.strides[d]!;
    index[k] = off;
    for (let d = view.ndim - 1; d >= 0 && ++counter[d]! === view.shape[d]!; d--) counter[d] = 0;
  }
  const t = tensor(index);
  return base.device.type === 'cpu' ? t : t.to(base.device);
}

export class CopySlices extends Node {
  private readonly baseShape: readonly number[];
  private readonly viewShape: readonly number[];
  private readonly mask: Tensor;

  constructor(
    base: Tensor,
    view: Tensor,
    private readonly region: Tensor,
    private readonly fn: KernelNode,
  ) {
    super();
    this.baseShape = base.shape;
    this.viewShape = view.shape;
    this.mask = indexAdd(
      zeros([base.numel], { dtype: 'int32', device: base.device }),
      0,
      region,
      ones([region.numel], { dtype: 'int32', device: base.device }),
    ).gt(0);
    this.setNextEdges([gradientEdge(base), ...fn.nextEdges.slice(1)]);
  }

  name(): string {
    return 'CopySlices';
  }

  apply([g]: Grads): Grads {
    if (!g) return this.nextEdges.map(() => null);
    const flat = reshape(g, [-1]);
    const [viewGrad = null, ...rest] = this.fn.apply([reshape(indexSelect(flat, 0, this.region), this.viewShape)]);
    let baseGrad = maskedFill(flat, this.mask, 0);
    if (viewGrad) baseGrad = indexAdd(baseGrad, 0, this.region, reshape(viewGrad, [-1]));
    return [reshape(baseGrad, this.baseShape), ...rest];
  }

  override releaseVariables(): void {
    this.fn.releaseVariables();
  }
}

/** The gradFn of a view written in place: the slice of its (new) base's gradient, like PyTorch's AsStridedBackward0. */
class AsStridedBackward extends Node {
  private readonly baseShape: readonly number[];
  private readonly baseNumel: number;

  constructor(
    base: Tensor,
    private readonly region: Tensor,
  ) {
    super();
    this.baseShape = base.shape;
    this.baseNumel = base.numel;
    this.setNextEdges([gradientEdge(base)]);
  }

  name(): string {
    return 'AsStridedBackward0';
  }

  apply([g]: Grads): Grads {
    if (!g) return [null];
    const flat = zeros([this.baseNumel], { dtype: g.dtype, device: g.device });
    return [reshape(indexAdd(flat, 0, this.region, reshape(g, [-1])), this.baseShape)];
  }
}

/** The gradFn a view reports: `stored`, or a regenerated one when its storage was written since (Note [Views after in-place writes]). */
export function viewGradFn(view: Tensor, stored: Node | null): Node | null {
  const meta = peekMeta(view);
  const base = meta?.viewBase;
  if (!base || meta.viewVersion === view.storage.version) return stored;
  if (stored !== null || base.requiresGrad) checkMultiOutputView(view, stored, true);
  meta.viewVersion = view.storage.version;
  if (!base.requiresGrad || !isFloatingPoint(view.dtype) || !base.isContiguous()) return stored;
  const node = new AsStridedBackward(base, regionOf(base, view));
  setHistory(view, node);
  return node;
}

/** Records an in-place kernel `fn` that wrote into `view` of `base`: See Note [In-place on views]. */
export function rebaseHistory(base: Tensor, view: Tensor, fn: KernelNode): void {
  const region = regionOf(base, view);
  setHistory(base, new CopySlices(base, view, region, fn));
  setHistory(view, new AsStridedBackward(base, region));
}
