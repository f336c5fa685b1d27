import { Node, type Grads } from './node.js';
import type { Edge } from './edge.js';

/**
 * PyTorch's GraphRoot: the node a pass starts from when it has no single root node to start
 * from; it hands each root edge its seed gradient. Engine.prepare builds one for several roots
 * (one root starts at its own node); the distributed engine builds one for any number of roots,
 * its edges the roots plus the send functions a pass reaches (Note [Distributed hooks]).
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
