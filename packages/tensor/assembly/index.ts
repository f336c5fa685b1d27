// The WebAssembly SIMD kernels of the cpu device (built by scripts/build-wasm.mjs).
export { gemm, gemmBatch, gemmScratchBytes } from './gemm';
export { axpyF32, binaryF32, unaryF32, unaryF32Chunks } from './elementwise';
export { sumF32 } from './reduce';
export { softmaxF32 } from './softmax';
export { im2colF32, col2imF32 } from './conv';
