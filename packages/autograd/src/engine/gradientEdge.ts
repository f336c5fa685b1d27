import type { Tensor } from '@wiregrad/tensor';
import { AccumulateGrad } from './accumulateGrad.js';
import { autogradMeta, peekMeta } from './autogradMeta.js';
import { Edge } from './edge.js';
import type { Node } from './node.js';

/** A leaf's AccumulateGrad, created once and kept on the tensor (PyTorch's grad_accumulator). */
export function gradAccumulator(t: Tensor): Node {
  const meta = autogradMeta(t);
  return (meta.gradAccumulator ??= new AccumulateGrad(t));
}

/** PyTorch's gradient_edge: where the gradient of `t` goes (its gradFn, its accumulator, or nowhere). */
export function gradientEdge(t: Tensor): Edge {
  if (t.gradFn) return new Edge(t.gradFn as Node, peekMeta(t)?.outputNr ?? 0);
  if (t.requiresGrad) return new Edge(gradAccumulator(t), 0);
  return NO_GRAD_EDGE;
}

/** Edges are immutable: every tensor that needs no gradient shares this one (Note [Node memory]). */
const NO_GRAD_EDGE = new Edge(null, 0);

/** Edges for the gradients of `tensors` (PyTorch's collect_next_edges). */
export function collectNextEdges(tensors: readonly Tensor[]): Edge[] {
  return tensors.map(gradientEdge);
}

/** Makes `node` the gradFn of `t`, as its `outputNr`-th output (PyTorch's set_history). */
export function setHistory(t: Tensor, node: Node, outputNr?: number): void {
  const nr = outputNr ?? node.addInputMetadata(t);
  t.gradFn = node;
  const meta = autogradMeta(t);
  meta.outputNr = nr;
  meta.viewVersion = t.storage.version;
}
