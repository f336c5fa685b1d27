import { castScalar, typedArrayFor } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import type { Tensor } from '../../../tensor.js';
import { copyStrided } from './copy.js';

/** Writes `value` (cast to dst's dtype) into every element of the view `dst`. */
export function fillTensor(dst: Tensor, value: number): void {
  const data = dst.storage.data;
  const v = castScalar(value, dst.dtype);
  if (dst.isContiguous()) {
    data.fill(v, dst.offset, dst.offset + dst.numel);
    return;
  }
  // a one-element source broadcast over dst: copyStrided walks dst's strides
  const one = typedArrayFor(dst.dtype, 1);
  one[0] = v;
  copyStrided(
    dst.shape,
    { data, offset: dst.offset, strides: dst.strides },
    { data: one, offset: 0, strides: dst.shape.map(() => 0) },
    false,
  );
}

export const fillKernel: KernelConfig = {
  kernelName: K.Fill,
  device: 'cpu',
  kernelFunc: ([dst], attrs) => {
    fillTensor(dst!, attrs.value);
    return [dst!];
  },
};
