import { type DType, type DeviceLike, empty } from '@wiregrad/autograd';
import type { AnyModule } from './module.js';
import { Parameter } from './parameter.js';

/** PyTorch's factory kwargs of a layer's parameters and buffers. */
export interface FactoryOptions {
  dtype?: DType;
  device?: DeviceLike;
}

/**
 * An uninitialised parameter on the cpu in the factory dtype (float32 by default). Layers
 * initialise on the cpu, where the one generator lives, then `placeOnDevice` moves them.
 */
export function emptyParameter(shape: number[], opts: FactoryOptions): Parameter {
  return new Parameter(empty(shape, { dtype: opts.dtype ?? 'float32' }));
}

/** Moves a freshly built layer to `opts.device` (nothing to do for the cpu). */
export function placeOnDevice<M extends AnyModule>(m: M, opts: FactoryOptions): M {
  if (opts.device !== undefined) m.to(opts.device);
  return m;
}
