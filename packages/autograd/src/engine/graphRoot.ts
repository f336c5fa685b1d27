import { Node, type Grads } from './node.js';
import type { Edge } from './edge.js';

/**
 * PyTorch's GraphRoot: the node a pass starts from when it has no single root node to start
 * from; it hands each root edge its seed gradient. Engine.prepare builds one for several roots
 * (one root starts at its own node); a driven pass builds one over all its starts to mark what
 * to execute (Note [Driving a pass]).
 */
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
