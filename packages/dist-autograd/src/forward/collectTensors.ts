import { Tensor } from '@wiregrad/autograd';

/** Every tensor occurrence that requires grad inside an RPC payload (arrays, plain objects, Maps), in a stable order. */
export function tensorsRequiringGrad(value: unknown): Tensor[] {
  const out: Tensor[] = [];
  const seen = new Set<unknown>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    // a tensor passed twice travels twice (and arrives as two tensors): one edge per occurrence
    if (v instanceof Tensor) {
      if (v.requiresGrad) out.push(v);
      continue;
    }
    if (seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (v instanceof Map) {
      stack.push(...[...v.values()].reverse());
    } else if (Object.getPrototypeOf(v) === Object.prototype) {
      stack.push(...Object.values(v).reverse());
    }
  }
  return out;
}
