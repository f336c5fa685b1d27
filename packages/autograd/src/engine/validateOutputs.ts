import { type Tensor, castTo, moveTo } from '@wiregrad/tensor';
import { AutogradError } from '../errors.js';
import type { Edge } from './edge.js';
import type { Grads } from './node.js';
import { isExpandableTo, sumToShape } from './sumToShape.js';

const fmt = (s: readonly number[]) => `[${s.join(', ')}]`;

/**
 * PyTorch's validate_outputs: one gradient per edge; a gradient of a broadcast-compatible
 * shape is summed to the expected one, a wrong dtype is cast, a 0-dim gradient is moved to
 * the expected device; anything else is an error (prefixed by `prefix`).
 */
export function validateOutputs(edges: readonly Edge[], grads: Grads, prefix: string): Grads {
  if (grads.length !== edges.length) {
    throw new AutogradError(
      'INVALID_GRADIENT',
      `${prefix}invalid number of gradients - expected ${edges.length}, but got ${grads.length}`,
    );
  }
  return grads.map((grad, i) => {
    const edge = edges[i]!;
    if (!grad || !edge.node) return grad;
    const meta = edge.node.inputMetadata[edge.inputNr];
    if (!meta) return grad;
    let g: Tensor = grad;
    if (!(g.ndim === meta.shape.length && g.shape.every((s, k) => s === meta.shape[k]))) {
      if (!isExpandableTo(meta.shape, g.shape)) {
        throw new AutogradError(
          'INVALID_GRADIENT',
          `${prefix}invalid gradient at index ${i} - got ${fmt(g.shape)} but expected shape compatible with ${fmt(meta.shape)}`,
        );
      }
      g = sumToShape(g, meta.shape);
    }
    if (g.dtype !== meta.dtype) g = castTo(g, meta.dtype);
    if (g.device !== meta.device) {
      if (g.ndim !== 0) {
        throw new AutogradError(
          'INVALID_GRADIENT',
          `${prefix}invalid gradient at index ${i} - expected device ${meta.device.toString()} but got ${g.device.toString()}`,
        );
      }
      g = moveTo(g, meta.device);
    }
    return g;
  });
}
