import { tensor, type Tensor } from '@wiregrad/tensor';
import { Edge } from '../engine/edge.js';
import { collectNextEdges, setHistory } from '../engine/gradientEdge.js';
import { Node, type Grads } from '../engine/node.js';

/**
 * Test helper: a node that logs its name when it runs and passes `emit(grads)` (by default
 * its first gradient) to every next edge. It takes one float32 [1] gradient unless told otherwise.
 */
export class Logged extends Node {
  constructor(
    private readonly label: string,
    private readonly log: string[],
    private readonly emit: (grads: Grads, self: Logged) => Grads = (grads, self) =>
      self.nextEdges.map(() => grads[0] ?? null),
    input: Tensor = tensor([0]),
  ) {
    super();
    this.addInputMetadata(input);
  }
  name() {
    return this.label;
  }
  apply(grads: Grads): Grads {
    this.log.push(this.label);
    return this.emit(grads, this);
  }
}

/** Wires `parent` to `children` (input 0 of each). */
export function link(parent: Node, ...children: Node[]): void {
  parent.setNextEdges(children.map((c) => new Edge(c, 0)));
}

/** Like dist-autograd's SendRpcBackward: a start whose gradients another worker sends back later. */
export class SendLike extends Node {
  grads: Grads = [];
  constructor(tensors: Tensor[]) {
    super();
    this.setNextEdges(collectNextEdges(tensors));
  }
  name() {
    return 'SendLike';
  }
  apply(): Grads {
    return this.grads;
  }
}

/** Like RecvRpcBackward: the gradFn of tensors that arrived over the wire; it "sends" their gradients away, and nothing follows it locally. */
export class RecvLike extends Node {
  received: Grads = [];
  constructor(tensors: Tensor[]) {
    super();
    this.setNextEdges([]);
    for (const t of tensors) setHistory(t, this);
  }
  name() {
    return 'RecvLike';
  }
  apply(grads: Grads): Grads {
    this.received = grads;
    return [];
  }
}
