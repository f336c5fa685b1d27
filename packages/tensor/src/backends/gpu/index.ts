// The gpu device on gpu.js: a plain registration list (see Note [Kernel names]).
import type { Device } from '../../device.js';
import { CPU } from '../../device.js';
import { typedArrayFor } from '../../dtype.js';
import { TensorError } from '../../errors.js';
import * as K from '../../kernelNames.js';
import { registerKernel } from '../../kernelRegistry.js';
import { onStorageDispose } from '../../storage.js';
import { Tensor } from '../../tensor.js';
import { registerTransfer } from '../../transfers.js';
import { contiguousCopy } from '../cpu/kernels/copy.js';
import { viewKernels } from '../cpu/kernels/view.js';
import { assertGpuDType, gpuMap } from './gpuMap.js';
import { download, gpuInfo, kernel, launch, release, startGpu } from './gpuRuntime.js';
import { type GpuBox, gpuTensor, valueOf } from './gpuTensor.js';
import { elementwiseKernels } from './kernels/elementwise.js';
import { inplaceKernels } from './kernels/inplace.js';
import { matmulKernel } from './kernels/matmul.js';
import { reduceKernels } from './kernels/reduce.js';
import { structureKernels } from './kernels/structure.js';
import { windowKernels } from './kernels/window.js';

for (const k of [
  ...viewKernels('gpu'),
  ...elementwiseKernels,
  matmulKernel,
  ...reduceKernels,
  ...structureKernels,
  ...inplaceKernels,
])
  registerKernel(k);
for (const k of windowKernels) registerKernel(k);

onStorageDispose('gpu', (handle) => {
  const box = handle as GpuBox | null;
  if (box) {
    release(box.value);
    box.value = null;
  }
});

function checkDevice(target: Device): void {
  startGpu();
  const { devices } = gpuInfo();
  if (target.index >= devices) {
    throw new TensorError('UNSUPPORTED', `${target.toString()} is not available: gpu.js has ${devices} device`);
  }
}

const UPLOAD = 'function (a) { return a[this.thread.x]; }';

registerTransfer('cpu', 'gpu', (x, target) => {
  assertGpuDType(x.dtype);
  checkDevice(target);
  const src = x.isContiguous() ? x.storage.data.subarray(x.offset, x.offset + x.numel) : contiguousCopy(x).storage.data;
  // an empty tensor holds one unread float (gpu.js takes no empty arguments or outputs)
  const value = launch(
    kernel('upload', () => UPLOAD),
    x.numel,
    [x.numel === 0 ? Float32Array.of(0) : Float32Array.from(src)],
  );
  return gpuTensor(value, x.shape, x.dtype, target);
});

/** ToDevice on the gpu: to the cpu (the dtype's typed array again) or, on one gpu.js device, nowhere else. */
registerKernel({
  kernelName: K.ToDevice,
  device: 'gpu',
  kernelFunc: ([x], attrs) => {
    const target = attrs.device;
    if (target !== CPU) {
      checkDevice(target);
      throw new TensorError('UNSUPPORTED', `cannot copy between gpu devices: gpu.js has one`);
    }
    const flat =
      x!.isContiguous() && x!.offset === 0 && x!.storage.length === x!.numel ? x! : gpuMap(K.Copy, 'x', [x!], x!.dtype);
    const values = download(valueOf(flat));
    const data = typedArrayFor(x!.dtype, x!.numel);
    data.set(values.subarray(0, x!.numel));
    return [Tensor.fromTypedArray(data, x!.shape, x!.dtype)];
  },
});

export { gpuInfo, gpuCompilations, loadGpu, setGpuMode } from './gpuRuntime.js';
export type { GpuInfo, GpuMode } from './gpuRuntime.js';
