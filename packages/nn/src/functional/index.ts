// torch.nn.functional, used as `functional.crossEntropy` or `import { functional as F }` (see ../index.ts).
export { linear } from './linear.js';
export { scaledDotProductAttention } from './attention.js';
export type { ScaledDotProductAttentionOptions } from './attention.js';
export { multiHeadAttentionForward } from './multiheadAttention.js';
export type { MultiheadAttentionWeights, MultiheadAttentionOptions } from './multiheadAttention.js';
export { rnnCell, lstmCell, gruCell } from './rnn.js';
export type { CellWeights, RnnNonlinearity } from './rnn.js';
export {
  mseLoss,
  l1Loss,
  smoothL1Loss,
  huberLoss,
  binaryCrossEntropy,
  binaryCrossEntropyWithLogits,
  klDiv,
} from './loss.js';
export type { ReductionOptions, KlDivReduction } from './loss.js';
export { nllLoss, crossEntropy } from './crossEntropy.js';
export type { NllLossOptions, CrossEntropyOptions } from './crossEntropy.js';
export type { Reduction } from './reduction.js';
export { relu, tanh, sigmoid, silu, gelu, softmax, logSoftmax } from './activation.js';
export type { GeluApproximate } from './activation.js';
export { leakyRelu, elu, selu, softplus, mish, hardswish, prelu } from './reluFamily.js';
export { dropout } from './dropout.js';
export { layerNorm, batchNorm } from './normalization.js';
export type { BatchNormOptions } from './normalization.js';
export { embedding, embeddingRenorm_ } from './sparse.js';
export type { FunctionalEmbeddingOptions } from './sparse.js';
export { conv1d, conv2d, unfold, fold } from './conv.js';
export type { ConvOptions } from './conv.js';
export { maxPool2d, avgPool2d, adaptiveAvgPool2d } from './pooling.js';
export type { AvgPoolOptions, MaxPoolOptions } from './pooling.js';
export { maxPool1d, avgPool1d } from './pool1d.js';
export type { Pool1dOptions } from './pool1d.js';
export { adaptiveMaxPool2d } from './adaptiveMaxPool.js';
export { convTranspose1d, convTranspose2d } from './convTranspose.js';
export type { ConvTransposeOptions } from './convTranspose.js';
export { groupNorm } from './groupNorm.js';
export { instanceNorm } from './instanceNorm.js';
export type { InstanceNormOptions } from './instanceNorm.js';
export { dropout2d } from './featureDropout.js';
