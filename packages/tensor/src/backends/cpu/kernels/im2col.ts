import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import type { WindowGeometry } from '../../../kernelSpecs.js';
import { Tensor } from '../../../tensor.js';
import { dims3, dims4 } from '../../../shape.js';
import { wasmCol2im, wasmIm2col } from '../wasm/wasmConv.js';

/** Im2Col (float32 in wasm where it pays, Note [Wasm im2col]; else im2colTs). */
export const im2colKernel: KernelConfig = {
  kernelName: K.Im2Col,
  device: 'cpu',
  kernelFunc: ([x], g) => [wasmIm2col(x, g, g.padValue) ?? im2colTs(x, g, g.padValue)],
};

/** Col2Im (float32 in wasm where it pays, Note [Wasm im2col]; else col2imTs). */
export const col2imKernel: KernelConfig = {
  kernelName: K.Col2Im,
  device: 'cpu',
  kernelFunc: ([cols], g) => [wasmCol2im(cols, g, g.inputSize) ?? col2imTs(cols, g, g.inputSize)],
};

/**
 * The TypeScript reference Im2Col [x [N, C, H, W]] -> [N, C·kh·kw, oh·ow]: column l holds the
 * window at output position l, rows ordered (c, ki, kj); positions in the padding read
 * `padValue`. Any strides.
 */
export function im2colTs(x: Tensor, g: WindowGeometry, padValue: number): Tensor {
  const {
    kernel: [kh, kw],
    stride: [sh, sw],
    padding: [pt, , pl],
    dilation: [dh, dw],
    outSize: [oh, ow],
  } = g;
  const [N, C, H, W] = dims4(x.shape, 'Im2Col');
  const [s0, s1, s2, s3] = dims4(x.strides, 'Im2Col');
  const out = Tensor.uninitialized([N, C * kh * kw, oh * ow], x.dtype);
  const o = out.storage.data;
  const d = x.storage.data;
  let p = 0;
  for (let n = 0; n < N; n++) {
    for (let c = 0; c < C; c++) {
      const base = x.offset + n * s0 + c * s1;
      for (let ki = 0; ki < kh; ki++) {
        for (let kj = 0; kj < kw; kj++) {
          for (let i = 0; i < oh; i++) {
            const ih = i * sh - pt + ki * dh;
            if (ih < 0 || ih >= H) {
              o.fill(padValue, p, p + ow);
              p += ow;
              continue;
            }
            const row = base + ih * s2;
            for (let j = 0; j < ow; j++, p++) {
              const iw = j * sw - pl + kj * dw;
              o[p] = iw >= 0 && iw < W ? d[row + iw * s3]! : padValue;
            }
          }
        }
      }
    }
  }
  return out;
}

/**
 * The TypeScript reference Col2Im [cols [N, C·kh·kw, oh·ow]] -> [N, C, H, W]: the adjoint of
 * Im2Col, each column value added to the input position it was read from (overlapping windows
 * sum; padding is dropped). Any strides.
 */
export function col2imTs(cols: Tensor, g: WindowGeometry, inputSize: readonly [number, number]): Tensor {
  const {
    kernel: [kh, kw],
    stride: [sh, sw],
    padding: [pt, , pl],
    dilation: [dh, dw],
    outSize: [oh, ow],
  } = g;
  const [H, W] = inputSize;
  const N = cols.shape[0]!;
  const C = cols.shape[1]! / (kh * kw);
  const [s0, s1, s2] = dims3(cols.strides, 'Col2Im');
  const out = Tensor.empty([N, C, H, W], cols.dtype);
  const o = out.storage.data;
  const d = cols.storage.data;
  for (let n = 0; n < N; n++) {
    for (let c = 0; c < C; c++) {
      const outBase = (n * C + c) * H * W;
      for (let ki = 0; ki < kh; ki++) {
        for (let kj = 0; kj < kw; kj++) {
          const rowBase = cols.offset + n * s0 + ((c * kh + ki) * kw + kj) * s1;
          for (let i = 0; i < oh; i++) {
            const ih = i * sh - pt + ki * dh;
            if (ih < 0 || ih >= H) continue;
            for (let j = 0; j < ow; j++) {
              const iw = j * sw - pl + kj * dw;
              if (iw >= 0 && iw < W)
                o[outBase + ih * W + iw] = o[outBase + ih * W + iw]! + d[rowBase + (i * ow + j) * s2]!;
            }
          }
        }
      }
    }
  }
  return out;
}
