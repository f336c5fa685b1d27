import {
  type Attrs,
  type KernelAttrs,
  KernelNames as K,
  type Tensor,
  type WindowGeometry,
  runKernel1,
} from '@wiregrad/tensor';
import { registerGradient } from './registry.js';

// Im2Col and Col2Im are each other's adjoint, so each is the other's gradient (Note [im2col] in
// @wiregrad/tensor's ops/conv.ts); conv and pooling are composites and need no rule of their own.
// (gradient rules see the erased Attrs; these are the recorded Im2Col or Col2Im attrs)
const geometry = (attrs: Attrs): WindowGeometry => {
  const a = attrs as KernelAttrs<typeof K.Im2Col>;
  return { kernel: a.kernel, stride: a.stride, padding: a.padding, dilation: a.dilation, outSize: a.outSize };
};

registerGradient({
  kernelName: K.Im2Col,
  gradFunc: ([g], c) => [
    runKernel1(K.Col2Im, [g as Tensor], {
      ...geometry(c.attrs),
      inputSize: [c.inputShapes[0]![2]!, c.inputShapes[0]![3]!],
    }),
  ],
});
registerGradient({
  kernelName: K.Col2Im,
  gradFunc: ([g], c) => [runKernel1(K.Im2Col, [g as Tensor], { ...geometry(c.attrs), padValue: 0 })],
});
