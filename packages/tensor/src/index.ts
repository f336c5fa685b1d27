// @wiregrad/tensor — explicit named exports only.
import './backends/cpu/index.js';
import './methods/math.js';
import './methods/structure.js';

export { Tensor, installAutogradMethods } from './tensor.js';
export type { NestedArray, GradNode, BackwardOptions, RemovableHandle, AutogradTensorMethods } from './tensor.js';
export { TensorError } from './errors.js';
export type { TensorErrorCode } from './errors.js';
export { Device, device, CPU } from './device.js';
export type { DeviceLike, DeviceType } from './device.js';
export { promoteTypes, resultType, isFloatingPoint, typedArrayFor, dtypeOfTypedArray, DTYPES } from './dtype.js';
export type { DType, TypedArray } from './dtype.js';
export { Storage, memory, onStorageDispose } from './storage.js';
export type { MemoryInfo } from './storage.js';
export { broadcastShapes, contiguousStrides, normalizeDim, numelOf } from './shape.js';
export { registerKernel, getKernel, hasKernel } from './kernelRegistry.js';
export type { KernelFunc, KernelConfig, Attrs } from './kernelRegistry.js';
export { runKernel, runKernel1, setAutogradHooks } from './dispatch.js';
export type { AutogradHooks } from './dispatch.js';
export * as KernelNames from './kernelNames.js';

// ---- math ops (ops/binary, unary, where, reduce, softmax, matmul) ----

// ---- structure ops (creation, random, view, copy, indexing, join, inplace, read) ----
