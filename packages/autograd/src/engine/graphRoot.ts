import { Node, type Grads } from './node.js';
import type { Edge } from './edge.js';

/** PyTorch's GraphRoot: only built for several roots; it hands each root its seed gradient. */
export class GraphRoot extends Node {
  constructor(
    edges: Edge[],
    private readonly outputs: Grads,
  ) {
    super();
    this.setNextEdges(edges);
  }

  name(): string {
    return 'GraphRoot';
  }

  apply(): Grads {
    return this.outputs;
  }
}
