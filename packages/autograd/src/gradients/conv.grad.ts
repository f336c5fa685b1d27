import { KernelNames as K, type WindowGeometry, runKernel1 } from '@wiregrad/tensor';
import { registerGradient } from './registry.js';

// Im2Col and Col2Im are each other's adjoint, so each is the other's gradient (Note [im2col] in
// @wiregrad/tensor's ops/conv.ts); conv and pooling are composites and need no rule of their own.
/** The window geometry of the recorded Im2Col or Col2Im attrs, without the attrs of one direction only. */
const geometry = ({ kernel, stride, padding, dilation, outSize }: WindowGeometry): WindowGeometry => ({
  kernel,
  stride,
  padding,
  dilation,
  outSize,
});

registerGradient({
  kernelName: K.Im2Col,
  gradFunc: ([g], c) => [
    runKernel1(K.Col2Im, [g!], {
      ...geometry(c.attrs),
      inputSize: [c.inputShapes[0]![2]!, c.inputShapes[0]![3]!],
    }),
  ],
});
registerGradient({
  kernelName: K.Col2Im,
  gradFunc: ([g], c) => [runKernel1(K.Im2Col, [g!], { ...geometry(c.attrs), padValue: 0 })],
});
