// @wiregrad/tensor — explicit named exports only. The slots @wiregrad/autograd fills are in
// @wiregrad/tensor/internal (Note [Tensor's internal entry point]).
import './backends/cpu/index.js';
import './backends/gpu/index.js';
import './backends/multiOutputViews.js';
import './backends/select.js';
import './methods/math.js';
import './methods/structure.js';
import './inspect.js';

export { Tensor, keep } from './tensor.js';
export { tidy, dispose } from './scope.js';
export { emptyCache, setCacheLimit, getCacheLimit } from './allocator.js';
export type { NestedArray, GradNode, BackwardOptions, RemovableHandle, AutogradTensorMethods } from './tensor.js';
export { TensorError } from './errors.js';
export { typeName } from './validate.js';
export type { TensorErrorCode } from './errors.js';
export { Device, device, CPU } from './device.js';
export type { DeviceLike, DeviceType } from './device.js';
export { promoteTypes, resultType, isFloatingPoint, typedArrayFor, dtypeOfTypedArray, DTYPES } from './dtype.js';
export type { DType, TypedArray } from './dtype.js';
export { Storage, memory, onStorageDispose } from './storage.js';
export type { MemoryInfo } from './storage.js';
export { broadcastShapes, contiguousStrides, normalizeDim, numelOf } from './shape.js';
export { registerKernel, getKernel, hasKernel } from './kernelRegistry.js';
export type { KernelFunc, KernelConfig, KernelConfigOf, ErasedKernelFunc, Attrs } from './kernelRegistry.js';
export type {
  KernelSpecs,
  KernelName,
  KernelInputs,
  KernelAttrs,
  NoAttrs,
  WindowGeometry,
  BinaryKernelName,
  UnaryKernelName,
} from './kernelSpecs.js';
export { runKernel, runKernel1 } from './dispatch.js';
export * as KernelNames from './kernelNames.js';

// ---- math ops ----
export { add, sub, mul, div, pow, maximum, minimum, eq, ne, lt, le, gt, ge } from './ops/binary.js';
export type { AlphaOptions } from './ops/binary.js';
export {
  neg,
  exp,
  log,
  log1p,
  sqrt,
  rsqrt,
  abs,
  sign,
  sin,
  cos,
  tanh,
  sigmoid,
  relu,
  gelu,
  silu,
  softplus,
  logicalNot,
  clamp,
} from './ops/unary.js';
export { where } from './ops/where.js';
export { sum, mean, prod, var_, var_ as var, std, max, min, argmax, argmin, logsumexp } from './ops/reduce.js';
export type { Dims, ValuesIndices, VarOptions } from './ops/reduce.js';
export { softmax, logSoftmax } from './ops/softmax.js';
export { matmul, mm, bmm, dot, outer } from './ops/matmul.js';
export { scalarTensor, castTo, promoteOperands, operandsResultType } from './ops/operands.js';
export type { Scalar, TensorOrScalar } from './ops/operands.js';

// ---- structure ops ----
export {
  tensor,
  zeros,
  ones,
  full,
  empty,
  zerosLike,
  onesLike,
  fullLike,
  arange,
  linspace,
  eye,
} from './ops/creation.js';
export type { TensorOptions } from './ops/creation.js';
export {
  reshape,
  view,
  transpose,
  permute,
  t,
  squeeze,
  unsqueeze,
  expand,
  flatten,
  narrow,
  slice,
  select,
  unbind,
} from './ops/view.js';
export { contiguous, clone, to, cpu, gpu, detach, moveTo } from './ops/copy.js';
export type { ToTarget } from './ops/copy.js';
export { item, tolist, toTypedArray } from './read.js';
export { gather, scatterAdd, indexSelect, indexAdd, maskedFill, oneHot, sliceScatter } from './ops/indexing.js';
export { cat, stack, split, chunk } from './ops/join.js';
export { conv1d, conv2d, im2col, col2im } from './ops/conv.js';
export type { ConvOptions, Pair, WindowOptions } from './ops/conv.js';
export { maxPool2d, maxPool2dWithIndices, avgPool2d, adaptiveAvgPool2d } from './ops/pooling.js';
export type { PoolOptions, MaxPoolOptions, AvgPoolOptions } from './ops/pooling.js';
export { batchNorm, layerNorm } from './ops/normalization.js';
export type { BatchNormOptions, LayerNormOptions } from './ops/normalization.js';
export { dropout } from './ops/dropout.js';
export { embedding } from './ops/embedding.js';
export type { EmbeddingOptions } from './ops/embedding.js';
export { add_, sub_, mul_, div_, clamp_, copy_, fill_, zero_ } from './ops/inplace.js';
export {
  manualSeed,
  getRngState,
  setRngState,
  rand,
  randn,
  randint,
  randLike,
  randnLike,
  uniform_,
  normal_,
} from './ops/random.js';
export { registerTransfer } from './transfers.js';
export type { TransferFunc } from './transfers.js';
export { viewKernels } from './backends/cpu/kernels/view.js';
export { gpuInfo, gpuCompilations, loadGpu, setGpuMode } from './backends/gpu/index.js';
export type { GpuInfo, GpuMode } from './backends/gpu/index.js';
export {
  setCpuKernels,
  setNumThreads,
  getNumThreads,
  cpuKernelInfo,
  shutdownThreadPool,
} from './backends/cpu/wasm/cpuKernels.js';
export type { CpuKernelMode, CpuKernelInfo } from './backends/cpu/wasm/cpuKernels.js';
