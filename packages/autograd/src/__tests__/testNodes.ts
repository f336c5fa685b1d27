import { tensor, type Tensor } from '@wiregrad/tensor';
import { Edge } from '../engine/edge.js';
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
