import { type Tensor, reshape, sum } from '@wiregrad/tensor';

/** True when `shape` broadcasts (expands) to `target`. */
export function isExpandableTo(shape: readonly number[], target: readonly number[]): boolean {
  if (shape.length > target.length) return false;
  const lead = target.length - shape.length;
  return shape.every((s, i) => s === 1 || s === target[lead + i]);
}

/** PyTorch's sum_to: sums a broadcast gradient back down to `shape`. */
export function sumToShape(g: Tensor, shape: readonly number[]): Tensor {
  if (g.shape.length === shape.length && g.shape.every((s, i) => s === shape[i])) return g;
  const lead = g.ndim - shape.length;
  const dims: number[] = [];
  for (let i = 0; i < g.ndim; i++) if (i < lead || (shape[i - lead] === 1 && g.shape[i] !== 1)) dims.push(i);
  const summed = dims.length > 0 ? sum(g, dims, true) : g;
  return reshape(summed, shape);
}
