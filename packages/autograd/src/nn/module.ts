import type { Tensor } from '@wiregrad/tensor';

/** PyTorch's nn.Module: parameters and submodules found by walking own properties. */
export abstract class Module {
  training = true;

  abstract forward(...inputs: Tensor[]): Tensor;

  /** Named parameters, depth first, like PyTorch's named_parameters(). */
  namedParameters(prefix = ''): [string, Tensor][] {
    const out: [string, Tensor][] = [];
    for (const [key, value] of Object.entries(this)) {
      const name = prefix ? `${prefix}.${key}` : key;
      if (value instanceof Module) out.push(...value.namedParameters(name));
      else if (Array.isArray(value)) value.forEach((m, i) => m instanceof Module && out.push(...m.namedParameters(`${name}.${i}`)));
      else if (isParameter(value)) out.push([name, value]);
    }
    return out;
  }

  parameters(): Tensor[] {
    return this.namedParameters().map(([, p]) => p);
  }

  train(mode = true): this {
    this.training = mode;
    for (const v of Object.values(this)) if (v instanceof Module) v.train(mode);
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
