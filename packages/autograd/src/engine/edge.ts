import type { Node } from './node.js';

/** PyTorch's Edge: the `inputNr`-th input of `node`. Invalid (node null) for tensors that need no grad. */
export class Edge {
  constructor(
    readonly node: Node | null,
    readonly inputNr: number,
  ) {}

  isValid(): boolean {
    return this.node !== null;
  }
}
