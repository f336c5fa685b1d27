import type { Tensor } from '@wiregrad/autograd';
import { type AnyModule, Module } from '../module.js';

/** Modules applied in order; children are named by position, as PyTorch's: `0.weight`, `2.bias`. */
export class Sequential extends Module {
  readonly layers: Module[];

  constructor(...layers: Module[]) {
    super();
    this.layers = layers;
  }

  override namedChildren(): [string, AnyModule][] {
    return this.layers.map((m, i) => [String(i), m as AnyModule]);
  }

  get length(): number {
    return this.layers.length;
  }

  /** The i-th module (negative counts from the end). */
  at(i: number): Module | undefined {
    return this.layers.at(i);
  }

  forward(x: Tensor): Tensor {
    return this.layers.reduce((h, layer) => layer.forward(h), x);
  }
}
