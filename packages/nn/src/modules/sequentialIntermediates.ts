import { Tensor } from '@wiregrad/autograd';
import type { AnyModule } from '../module.js';
import { GELU, LogSoftmax, ReLU, SiLU, Sigmoid, Softmax, Tanh } from './activation.js';
import { AdaptiveMaxPool2d } from './adaptiveMaxPool.js';
import { BatchNorm1d, BatchNorm2d } from './batchnorm.js';
import { Conv1d, Conv2d } from './conv.js';
import { ConvTranspose1d, ConvTranspose2d } from './convTranspose.js';
import { Dropout } from './dropout.js';
import { Dropout2d } from './dropout2d.js';
import { Flatten } from './flatten.js';
import { GroupNorm } from './groupNorm.js';
import { InstanceNorm1d, InstanceNorm2d } from './instancenorm.js';
import { Identity, Linear } from './linear.js';
import { LayerNorm } from './normalization.js';
import { AvgPool1d, MaxPool1d } from './pool1d.js';
import { AdaptiveAvgPool2d, AvgPool2d, MaxPool2d } from './pooling.js';
import { ELU, Hardswish, LeakyReLU, Mish, PReLU, SELU, Softplus } from './reluFamily.js';

/**
 * Note [Sequential's intermediates]
 * What a layer of a Sequential hands the next one is an intermediate no caller can reach: PyTorch
 * frees it once the graph that saved it is freed (after backward), or at once under no_grad,
 * by its reference count. JS cannot count references, so a Sequential disposes (releases its
 * own hold on) an intermediate as soon as the next layer has run, where both layers are of the
 * classes below, exactly (not subclasses): their forward keeps no reference to its input or
 * output besides the graph's saved tensors, which hold the storage on their own (Note
 * [Releasing storages] in @wiregrad/tensor). So the memory goes back to the allocator when
 * backward frees the graph, or at once when nothing saved it, even in a loop that never yields
 * to the event loop (where the GC's FinalizationRegistry callbacks never run, and every step
 * would take fresh wasm memory until the heap's cap). An intermediate the next layer returned
 * as its output (Identity, Dropout in eval mode) is not disposed; a view of it (Flatten) holds
 * its storage itself. Any other layer (a user's Module, whose forward may keep what it gets
 * or returns) leaves the tensors it touches to the GC, as before.
 */
const KEEPS_NO_TENSORS = new Set<unknown>([
  Linear,
  Identity,
  Conv1d,
  Conv2d,
  ConvTranspose1d,
  ConvTranspose2d,
  BatchNorm1d,
  BatchNorm2d,
  InstanceNorm1d,
  InstanceNorm2d,
  LayerNorm,
  GroupNorm,
  ReLU,
  Tanh,
  Sigmoid,
  GELU,
  SiLU,
  Softmax,
  LogSoftmax,
  LeakyReLU,
  ELU,
  SELU,
  Softplus,
  Mish,
  Hardswish,
  PReLU,
  Dropout,
  Dropout2d,
  Flatten,
  MaxPool1d,
  MaxPool2d,
  AvgPool1d,
  AvgPool2d,
  AdaptiveAvgPool2d,
  AdaptiveMaxPool2d,
]);

/** Whether `m`'s forward keeps no reference to its input or output (Note [Sequential's intermediates]). */
export function keepsNoTensors(m: AnyModule): boolean {
  return KEEPS_NO_TENSORS.has(m.constructor);
}

/** Disposes `h`, an intermediate of a Sequential that the next layer has run on, unless it handed it on as `out`. */
export function releaseIntermediate(h: unknown, out: unknown): void {
  if (h instanceof Tensor && h !== out) h.dispose();
}
