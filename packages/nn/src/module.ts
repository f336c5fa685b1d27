import type { Tensor } from '@wiregrad/autograd';

/**
 * PyTorch's nn.Module: parameters (leaf tensors that require grad) and submodules are found
 * among the module's own properties (arrays of modules included), in definition order.
 */
export abstract class Module {
  training = true;

  abstract forward(...inputs: Tensor[]): Tensor;

  /** Direct submodules with their names (PyTorch's named_children). */
  namedChildren(): [string, Module][] {
    const out: [string, Module][] = [];
    for (const [key, value] of Object.entries(this)) {
      if (value instanceof Module) out.push([key, value]);
      else if (Array.isArray(value)) value.forEach((m, i) => m instanceof Module && out.push([`${key}.${i}`, m]));
    }
    return out;
  }

  /** Named parameters, own first, then each child's, like PyTorch's named_parameters(). */
  namedParameters(prefix = ''): [string, Tensor][] {
    const name = (key: string) => (prefix ? `${prefix}.${key}` : key);
    const out: [string, Tensor][] = [];
    for (const [key, value] of Object.entries(this)) if (isParameter(value)) out.push([name(key), value]);
    for (const [key, child] of this.namedChildren()) out.push(...child.namedParameters(name(key)));
    return out;
  }

  parameters(): Tensor[] {
    return this.namedParameters().map(([, p]) => p);
  }

  /** Sets training mode here and in every submodule; returns this. */
  train(mode = true): this {
    this.training = mode;
    for (const [, child] of this.namedChildren()) child.train(mode);
    return this;
  }

  eval(): this {
    return this.train(false);
  }

  zeroGrad(): void {
    for (const p of this.parameters()) p.grad = null;
  }
}

function isParameter(v: unknown): v is Tensor {
  return typeof v === 'object' && v !== null && 'requiresGrad' in v && 'storage' in v && (v as Tensor).requiresGrad && (v as Tensor).isLeaf;
}
