// The model and its training on one device: an MLP of the settings' hidden layers and activation,
// Adam with the settings' learning rate and L2 penalty, on minibatches of the training points.
// Initial weights come from the settings' seed on the cpu and then move, and the batches from a
// generator of the same seed, so a cpu and a gpu trainer of one setting take the same steps and
// their losses can be compared step by step.
import { manualSeed, noGrad, tensor, type Tensor } from '@wiregrad/autograd';
import { Identity, Linear, type Module, ReLU, Sequential, Sigmoid, Tanh, functional as F } from '@wiregrad/nn';
import { Adam } from '@wiregrad/nn/optim';
import { type Points, type Split, EXTENT, generator, shuffled } from './datasets.js';
import type { Activation, Settings } from './settings.js';

export type PlaygroundDevice = 'cpu' | 'gpu';

const ACTIVATION: Record<Activation, () => Module> = {
  tanh: () => new Tanh(),
  relu: () => new ReLU(),
  sigmoid: () => new Sigmoid(),
  linear: () => new Identity(),
};

/** 2 inputs, the hidden layers (each followed by the activation), 2 logits. */
export function mlp(hidden: readonly number[], activation: Activation): Sequential {
  const layers: Module[] = [];
  let width = 2;
  for (const n of hidden) {
    layers.push(new Linear(width, n), ACTIVATION[activation]());
    width = n;
  }
  layers.push(new Linear(width, 2));
  return new Sequential(...layers);
}

export interface Trainer {
  device: PlaygroundDevice;
  /** one Adam step on the next minibatch (a new shuffle of the training points each epoch) */
  step(): void;
  /** cross-entropy over the whole training set and over the test set, and their accuracies */
  evaluate(): { train: number; test: number; trainAccuracy: number; testAccuracy: number };
  /** P(class 1) at each cell centre of an n x n grid over [-EXTENT, EXTENT]^2, row-major from the top row */
  probabilities(n: number): number[];
}

interface OnDevice {
  x: Tensor;
  y: Tensor;
}

const onDevice = (p: Points, device: PlaygroundDevice): OnDevice => ({
  x: tensor(p.x.length ? p.x : [[0, 0]]).to(device),
  y: tensor(p.y.length ? p.y : [0], { dtype: 'int32' }).to(device),
});

/** the centres of an n x n grid's cells, top row (largest x2) first */
export function gridPoints(n: number): number[][] {
  const out: number[][] = [];
  const at = (k: number) => ((k + 0.5) / n) * 2 * EXTENT - EXTENT;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out.push([at(j), -at(i)]);
  return out;
}

export function trainer(settings: Settings, split: Split, device: PlaygroundDevice): Trainer {
  manualSeed(settings.seed);
  const model = mlp(settings.hidden, settings.activation);
  model.to(device);
  const opt = new Adam(model.parameters(), { lr: settings.learningRate, weightDecay: settings.l2 });
  const train = onDevice(split.train, device);
  const test = onDevice(split.test, device);
  const n = split.train.x.length;
  const batchSize = Math.min(settings.batchSize, n);
  const rand = generator(settings.seed + 1);
  let order: number[] = [];
  let next = n;
  const measure = (set: OnDevice, count: number) => {
    if (count === 0) return { loss: Number.NaN, accuracy: Number.NaN };
    const logits = model.forward(set.x);
    return {
      loss: F.crossEntropy(logits, set.y).item(),
      accuracy: logits.argmax(1).eq(set.y).sum().item() / count,
    };
  };
  return {
    device,
    step() {
      if (next + batchSize > n) {
        order = shuffled(n, rand);
        next = 0;
      }
      const idx = order.slice(next, next + batchSize);
      next += batchSize;
      const x = tensor(idx.map((i) => split.train.x[i]!)).to(device);
      const y = tensor(
        idx.map((i) => split.train.y[i]!),
        { dtype: 'int32' },
      ).to(device);
      opt.zeroGrad();
      F.crossEntropy(model.forward(x), y).backward();
      opt.step();
    },
    evaluate: () =>
      noGrad(() => {
        const tr = measure(train, split.train.x.length);
        const te = measure(test, split.test.x.length);
        return { train: tr.loss, test: te.loss, trainAccuracy: tr.accuracy, testAccuracy: te.accuracy };
      }),
    probabilities: (cells) =>
      noGrad(() => {
        const p = F.softmax(model.forward(tensor(gridPoints(cells)).to(device)), 1).tolist() as number[][];
        return p.map((row) => row[1]!);
      }),
  };
}
