import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { dims4 } from '../../../shape.js';
import { kernel, launch } from '../gpuRuntime.js';
import { gpuTensor, valueOf } from '../gpuTensor.js';

// Im2Col and Col2Im on the gpu device: one thread per output element, the window geometry in
// meta (Note [im2col] in ops/conv.ts; the same contract as the cpu kernels in cpu/kernels/im2col.ts).
// Divisions are floor((r + 0.5) / s), exact in float32 below 2^23 (Note [gpu storage] limits).

/** meta: [L, CKK, KK, kw, ow, sh, sw, pt, pl, dh, dw, H, W, offset, s0, s1, s2, s3, padValue] */
const IM2COL = `function (meta, x) {
const e = this.thread.x;
const r = Math.floor((e + 0.5) / meta[0]);
const l = e - r * meta[0];
const n = Math.floor((r + 0.5) / meta[1]);
const ck = r - n * meta[1];
const c = Math.floor((ck + 0.5) / meta[2]);
const k = ck - c * meta[2];
const ki = Math.floor((k + 0.5) / meta[3]);
const kj = k - ki * meta[3];
const i = Math.floor((l + 0.5) / meta[4]);
const j = l - i * meta[4];
const ih = i * meta[5] - meta[7] + ki * meta[9];
const iw = j * meta[6] - meta[8] + kj * meta[10];
if (ih < 0 || ih >= meta[11] || iw < 0 || iw >= meta[12]) {
  return meta[18];
}
return x[meta[13] + n * meta[14] + c * meta[15] + ih * meta[16] + iw * meta[17]];
}`;

const im2col: KernelConfig = {
  kernelName: K.Im2Col,
  device: 'gpu',
  kernelFunc: ([x], attrs) => {
    const {
      kernel: [kh, kw],
      stride: [sh, sw],
      padding: [pt, , pl],
      dilation: [dh, dw],
      outSize: [oh, ow],
      padValue,
    } = attrs;
    const [N, C, H, W] = dims4(x!.shape, 'Im2Col');
    const shape = [N, C * kh * kw, oh * ow];
    const meta = [
      oh * ow,
      C * kh * kw,
      kh * kw,
      kw,
      ow,
      sh,
      sw,
      pt,
      pl,
      dh,
      dw,
      H,
      W,
      x!.offset,
      ...x!.strides,
      padValue,
    ];
    return [
      gpuTensor(
        launch(
          kernel('im2col', () => IM2COL),
          N * C * kh * kw * oh * ow,
          [meta, valueOf(x!)],
        ),
        shape,
        x!.dtype,
        x!.device,
      ),
    ];
  },
};

/** meta: [W, H, C, ow, oh, sh, sw, pt, pl, dh, dw, offset, s0, s1, s2]; kh and kw are unrolled as loop bounds. */
const col2imSource = (kh: number, kw: number) => `function (meta, cols) {
const e = this.thread.x;
const r1 = Math.floor((e + 0.5) / meta[0]);
const w = e - r1 * meta[0];
const r2 = Math.floor((r1 + 0.5) / meta[1]);
const h = r1 - r2 * meta[1];
const n = Math.floor((r2 + 0.5) / meta[2]);
const c = r2 - n * meta[2];
let acc = 0;
for (let ki = 0; ki < ${kh}; ki++) {
  const th = h + meta[7] - ki * meta[9];
  const i = Math.floor((th + 0.5) / meta[5]);
  if (th >= 0 && i * meta[5] === th && i < meta[4]) {
    for (let kj = 0; kj < ${kw}; kj++) {
      const tw = w + meta[8] - kj * meta[10];
      const j = Math.floor((tw + 0.5) / meta[6]);
      if (tw >= 0 && j * meta[6] === tw && j < meta[3]) {
        acc += cols[meta[11] + n * meta[12] + ((c * ${kh} + ki) * ${kw} + kj) * meta[13] + (i * meta[3] + j) * meta[14]];
      }
    }
  }
}
return acc;
}`;

const col2im: KernelConfig = {
  kernelName: K.Col2Im,
  device: 'gpu',
  kernelFunc: ([cols], attrs) => {
    const {
      kernel: [kh, kw],
      stride: [sh, sw],
      padding: [pt, , pl],
      dilation: [dh, dw],
      outSize: [oh, ow],
      inputSize: [H, W],
    } = attrs;
    const N = cols!.shape[0]!;
    const C = cols!.shape[1]! / (kh * kw);
    const meta = [W, H, C, ow, oh, sh, sw, pt, pl, dh, dw, cols!.offset, ...cols!.strides];
    const value = launch(
      kernel(`col2im:${kh}x${kw}`, () => col2imSource(kh, kw)),
      N * C * H * W,
      [meta, valueOf(cols!)],
    );
    return [gpuTensor(value, [N, C, H, W], cols!.dtype, cols!.device)];
  },
};

export const windowKernels: KernelConfig[] = [im2col, col2im];
