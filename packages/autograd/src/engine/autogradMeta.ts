import type { Tensor } from '@wiregrad/tensor';
import type { Node } from './node.js';

/** PyTorch's AutogradMeta: what autograd keeps on a tensor (Tensor.autogradMeta). */
export interface AutogradMeta {
  /** which output of its gradFn this tensor is */
  outputNr: number;
  /** a leaf's AccumulateGrad, created on first use */
  gradAccumulator: Node | null;
  retainsGrad: boolean;
  /** made on the first registerPostAccumulateGradHook (See Note [Node memory]) */
  postAccumulateHooks: Map<number, (param: Tensor) => void> | null;
  /** the tensor a view was taken of, when the base required grad */
  viewBase: Tensor | null;
  /** a view's storage version when its history was last set (Note [Views after in-place writes]) */
  viewVersion: number;
  /** a piece of split or unbind, or a view of one (PyTorch's CreationMeta::MULTI_OUTPUT_NODE; Note [Multi-output views]) */
  multiOutputView: boolean;
}

export function autogradMeta(t: Tensor): AutogradMeta {
  let m = t.autogradMeta as AutogradMeta | null;
  if (!m) {
    m = {
      outputNr: 0,
      gradAccumulator: null,
      retainsGrad: false,
      postAccumulateHooks: null,
      viewBase: null,
      viewVersion: 0,
      multiOutputView: false,
    };
    t.autogradMeta = m;
  }
  return m;
}

export function peekMeta(t: Tensor): AutogradMeta | null {
  return t.autogradMeta as AutogradMeta | null;
}
