import type { Tensor } from '@wiregrad/autograd';
import { NnError } from '../errors.js';
import { linear } from '../functional/linear.js';
import { type AnyModule, Module } from '../module.js';
import { ReLU } from './activation.js';
import { Linear } from './linear.js';
import { keepsNoTensors, releaseIntermediate } from './sequentialIntermediates.js';

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

  append(m: Module): this {
    this.layers.push(m);
    return this;
  }

  /**
   * Applies the layers in order; a Linear followed by a ReLU runs as one fused kernel (Note
   * [Fused linear]), and what built-in layers hand each other is released as soon as the next
   * one has run (Note [Sequential's intermediates]).
   */
  forward(x: Tensor): Tensor {
    let h = x;
    let intermediate = false; // h was made by a layer that keeps no reference to it
    for (let i = 0; i < this.layers.length; i++) {
      const layer = this.layers[i]!;
      let out: Tensor;
      if (layer.constructor === Linear && this.layers[i + 1]?.constructor === ReLU) {
        const { weight, bias } = layer as Linear;
        out = linear(h, weight, bias, { activation: 'relu' });
        i++;
      } else {
        out = layer.forward(h);
      }
      const pure = keepsNoTensors(layer as AnyModule);
      if (intermediate && pure) releaseIntermediate(h, out);
      intermediate = pure;
      h = out;
    }
    return h;
  }
}

const missingForward = (name: string) =>
  new NnError('INVALID_STATE', `Module [${name}] is missing the required "forward" function`);

/** A list of submodules registered by position (`0.weight`); it has no forward of its own. `new ModuleList<Linear>(...)` types its items. */
export class ModuleList<M extends AnyModule = AnyModule> extends Module<never[], never> {
  private readonly items: M[];

  constructor(modules: Iterable<NoInfer<M>> = []) {
    super();
    this.items = [...modules];
  }

  override namedChildren(): [string, AnyModule][] {
    return this.items.map((m, i) => [String(i), m]);
  }

  get length(): number {
    return this.items.length;
  }

  at(i: number): M | undefined {
    return this.items.at(i);
  }

  append(m: M): this {
    this.items.push(m);
    return this;
  }

  extend(ms: Iterable<M>): this {
    this.items.push(...ms);
    return this;
  }

  insert(index: number, m: M): void {
    this.items.splice(index < 0 ? this.items.length + index : index, 0, m);
  }

  [Symbol.iterator](): Iterator<M> {
    return this.items[Symbol.iterator]();
  }

  forward(): never {
    throw missingForward('ModuleList');
  }
}

/** Submodules by name, in insertion order (`encoder.weight`); it has no forward of its own. */
export class ModuleDict<M extends AnyModule = AnyModule> extends Module<never[], never> {
  private readonly items = new Map<string, M>();

  constructor(modules: Record<string, NoInfer<M>> | Iterable<[string, NoInfer<M>]> = {}) {
    super();
    const entries = Symbol.iterator in modules ? [...(modules as Iterable<[string, M]>)] : Object.entries(modules);
    for (const [k, m] of entries) this.set(k, m);
  }

  override namedChildren(): [string, AnyModule][] {
    return [...this.items];
  }

  get size(): number {
    return this.items.size;
  }

  get(key: string): M | undefined {
    return this.items.get(key);
  }

  set(key: string, m: M): this {
    if (key.includes('.')) throw new NnError('KEY_ERROR', `module name can't contain ".", got: ${key}`);
    if (key === '') throw new NnError('KEY_ERROR', 'module name can\'t be empty string ""');
    this.items.set(key, m);
    return this;
  }

  has(key: string): boolean {
    return this.items.has(key);
  }

  delete(key: string): boolean {
    return this.items.delete(key);
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  values(): M[] {
    return [...this.items.values()];
  }

  entries(): [string, M][] {
    return [...this.items];
  }

  forward(): never {
    throw missingForward('ModuleDict');
  }
}
