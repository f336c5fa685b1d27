// @wiregrad/nn: torch.nn on @wiregrad/autograd — explicit named exports only.
// Importing @wiregrad/nn plugs the autograd engine into @wiregrad/tensor, as importing @wiregrad/autograd does.
import '@wiregrad/autograd';

export { NnError } from './errors.js';
export type { NnErrorCode } from './errors.js';
export { Module } from './module.js';
export type { AnyModule } from './module.js';
export { Parameter } from './parameter.js';
export type { StateDict, IncompatibleKeys, LoadStateDictOptions } from './stateDict.js';
export type { FactoryOptions } from './factory.js';
export * as init from './init.js';
export { Identity, Linear } from './modules/linear.js';
export { ReLU, Tanh, Sigmoid, GELU, SiLU, Softmax, LogSoftmax } from './modules/activation.js';
export { LeakyReLU, ELU, SELU, Softplus, Mish, Hardswish, PReLU } from './modules/reluFamily.js';
export { Sequential, ModuleList, ModuleDict } from './modules/container.js';
export { Flatten } from './modules/flatten.js';
export { Dropout } from './modules/dropout.js';
export { LayerNorm } from './modules/normalization.js';
export { BatchNorm1d, BatchNorm2d, BatchNormBase } from './modules/batchnorm.js';
export type { BatchNormOptions } from './modules/batchnorm.js';
export { Embedding } from './modules/sparse.js';
export { Conv1d, Conv2d } from './modules/conv.js';
export type { ConvModuleOptions } from './modules/conv.js';
export { MaxPool2d, AvgPool2d, AdaptiveAvgPool2d } from './modules/pooling.js';
export { MaxPool1d, AvgPool1d } from './modules/pool1d.js';
export type { MaxPool1dOptions } from './modules/pool1d.js';
export { AdaptiveMaxPool2d } from './modules/adaptiveMaxPool.js';
export { ConvTranspose1d, ConvTranspose2d } from './modules/convTranspose.js';
export type { ConvTransposeModuleOptions } from './modules/convTranspose.js';
export { GroupNorm } from './modules/groupNorm.js';
export { InstanceNorm1d, InstanceNorm2d } from './modules/instancenorm.js';
export { Dropout2d } from './modules/dropout2d.js';
export type { MaxPool2dOptions } from './modules/pooling.js';
export * as functional from './functional/index.js';
export {
  mseLoss,
  l1Loss,
  smoothL1Loss,
  huberLoss,
  binaryCrossEntropy,
  binaryCrossEntropyWithLogits,
  klDiv,
  nllLoss,
  crossEntropy,
} from './functional/index.js';
export type { Reduction, CrossEntropyOptions, NllLossOptions } from './functional/index.js';
export { TensorDataset, Subset, randomSplit } from './data/dataset.js';
export type { Dataset } from './data/dataset.js';
export { DataLoader, defaultCollate } from './data/dataLoader.js';
export type { DataLoaderOptions, Sampler } from './data/dataLoader.js';
export { Generator } from './data/generator.js';
export { serialize, deserialize, safetensorsMetadata } from './serialization/safetensors.js';
export { save, load } from './serialization/checkpoint.js';
export { RNNBase } from './modules/rnn/rnnBase.js';
export type { RnnMode, RnnOptions } from './modules/rnn/rnnBase.js';
export { RNN } from './modules/rnn/rnn.js';
export { LSTM } from './modules/rnn/lstm.js';
export type { LstmState } from './modules/rnn/lstm.js';
export { GRU } from './modules/rnn/gru.js';
export { RNNCellBase, RNNCell, LSTMCell, GRUCell } from './modules/rnn/rnnCell.js';
export type { RnnCellOptions } from './modules/rnn/rnnCell.js';
export { MultiheadAttention, NonDynamicallyQuantizableLinear } from './modules/attention/multiheadAttention.js';
export type {
  MultiheadAttentionOptions,
  MultiheadAttentionForwardOptions,
} from './modules/attention/multiheadAttention.js';
export {
  TransformerEncoderLayer,
  type TransformerActivation,
  type TransformerLayerOptions,
  type EncoderLayerForwardOptions,
} from './modules/transformer/transformerEncoderLayer.js';
export { TransformerDecoderLayer } from './modules/transformer/transformerDecoderLayer.js';
export type { DecoderLayerForwardOptions } from './modules/transformer/transformerDecoderLayer.js';
export { Transformer, TransformerEncoder, TransformerDecoder } from './modules/transformer/transformer.js';
export type {
  TransformerOptions,
  TransformerForwardOptions,
  EncoderForwardOptions,
} from './modules/transformer/transformer.js';
export { PackedSequence, packPaddedSequence, padPackedSequence, padSequence, packSequence } from './utils/rnn.js';
