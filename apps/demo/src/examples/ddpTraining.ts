import { createHash } from 'node:crypto';
import { manualSeed, type Tensor, toTypedArray } from '@wiregrad/autograd';
import { crossEntropy, DataLoader, type Sequential, TensorDataset } from '@wiregrad/nn';
import { DistributedSampler } from '@wiregrad/distributed';
import { makeConvnet } from './mnist.js';
import { loadMnist, type MnistData, type MnistSplit } from './mnistData.js';
import { OneCycleSGD } from './mnistOptimizer.js';

/** What `pnpm demo ddp` hands each rank (as JSON in DDP_SETTINGS_ENV) and trains the one-process reference with. */
export interface DdpSettings {
  seed: number;
  trainSize: number;
  testSize: number;
  epochs: number;
  /** digits per rank and step; the one-process reference takes workers x batchSize */
  batchSize: number;
  lr: number;
  /** where rank 0 saves the trained parameters */
  weights: string;
}

/** The variable the demo passes a rank its DdpSettings in (wiregrad-run hands its environment to every worker). */
export const DDP_SETTINGS_ENV = 'WIREGRAD_DEMO_DDP';

/** What a rank prints last, one line the demo reads (and does not echo): `result {json}`. */
export interface RankResult {
  rank: number;
  /** training digits this rank stepped on, every epoch together */
  samples: number;
  /** seconds of training (forward, backward, all-reduce, step), evaluation left out */
  seconds: number;
  /** sha256 of the trained parameters' bytes: the same on every rank */
  digest: string;
  /** held-out accuracy of the trained model, the ranks' shares together */
  testAcc: number;
}

export const RESULT_PREFIX = 'result ';

/**
 * Note [DDP demo in float64]
 * The ddp demo trains in float64. DDP's averaged gradient and one process's gradient on the
 * whole batch are the same sums in another order, so in float32 they differ in the last bits
 * (1.5e-8 after 8 steps), and 5 epochs of SGD at the 1cycle peak (705 steps) amplified that to a
 * largest parameter difference of 0.14 (measured, default settings): two float32 runs of
 * the same training that differ only in summation order end apart, DDP or not. In float64 the
 * starting difference is ~1e-16, and the default run ended 1.8e-14 apart (97.6 % held-out for
 * both). The convnet and its digits are cast to float64 before DDP wraps it (samples/s are
 * float64's: 2.4-3x fewer than float32's on this machine).
 */
export const DDP_DTYPE = 'float64';

/** The convnet with `seed`'s initial parameters, in DDP_DTYPE. */
export function ddpConvnet(seed: number): Sequential {
  manualSeed(seed);
  return makeConvnet().to({ dtype: DDP_DTYPE });
}

/** The demo's digits (loadMnist's seeded split), the images in DDP_DTYPE. */
export async function ddpData(s: DdpSettings): Promise<MnistData> {
  const { train, test } = await loadMnist(s.seed, s.trainSize, s.testSize);
  return {
    train: { x: train.x.to({ dtype: DDP_DTYPE }), y: train.y },
    test: { x: test.x.to({ dtype: DDP_DTYPE }), y: test.y },
  };
}

/**
 * Note [DDP parity with one process]
 * DistributedSampler gives rank r of W the indices perm[r], perm[r + W], perm[r + 2W], ... of the
 * epoch's permutation (seeded seed + epoch), so the W batches of B digits the ranks take at step s
 * are together perm[s·W·B, (s+1)·W·B): the very batch one process takes at step s with a
 * DistributedSampler of one replica (the same permutation) and batches of W·B. With the training
 * set a multiple of W (no padding), every rank's batch at a step has the same size, so
 * crossEntropy's mean over the W·B digits is the mean of the ranks' means, which is what DDP's
 * averaged gradients are the gradient of. With rank 0's initial parameters (DDP broadcasts them),
 * the same OneCycleSGD schedule over the same number of steps, the two runs' parameters differ
 * only by summation order: `pnpm demo ddp` checks they agree within 1e-5 (Note [DDP demo in float64]).
 */
export function samplerFor(trainSize: number, numReplicas: number, rank: number, seed: number): DistributedSampler {
  return new DistributedSampler({ length: trainSize }, { numReplicas, rank, seed });
}

/** sha256 of the tensors' bytes in order. */
export function digestOf(ts: Tensor[]): string {
  const h = createHash('sha256');
  for (const t of ts) h.update(toTypedArray(t));
  return h.digest('hex').slice(0, 16);
}

export interface TrainOptions {
  model: { parameters(): Tensor[] };
  /** the model's forward (DDP's call on a rank) */
  forward: (x: Tensor) => Tensor;
  /** loss.backwardAsync() under DDP, loss.backward() in one process */
  backward: (loss: Tensor) => Promise<void> | void;
  train: MnistSplit;
  sampler: DistributedSampler;
  batchSize: number;
  epochs: number;
  lr: number;
  /** a progress line (about five an epoch, and each epoch's last step) */
  log: (line: string) => void;
  /** after each epoch's last step, out of the timed training: the held-out accuracy */
  evaluate: () => Promise<number>;
}

const percent = (a: number) => `${(100 * a).toFixed(1)} %`;

/**
 * The mnist convnet's training loop for the ddp demo, the same on every rank and in the
 * one-process reference: `epochs` passes over the sampler's share of the digits, OneCycleSGD
 * (Note [MNIST learning-rate schedule]) stepping after each batch. Returns the digits stepped on
 * and the seconds spent training (evaluation excluded), for samples/s.
 */
export async function trainEpochs(o: TrainOptions): Promise<{ samples: number; seconds: number }> {
  const loader = new DataLoader(new TensorDataset(o.train.x, o.train.y), {
    batchSize: o.batchSize,
    sampler: o.sampler,
  });
  const opt = new OneCycleSGD(o.model.parameters(), { lr: o.lr, totalSteps: loader.length * o.epochs });
  const every = Math.max(1, Math.ceil(loader.length / 5));
  let samples = 0;
  let ms = 0;
  for (let epoch = 1; epoch <= o.epochs; epoch++) {
    o.sampler.setEpoch(epoch - 1);
    let lossSum = 0;
    let right = 0;
    let seen = 0;
    let step = 0;
    let t = performance.now();
    for (const [x, y] of loader) {
      opt.zeroGrad();
      const logits = o.forward(x!);
      const loss = crossEntropy(logits, y!);
      await o.backward(loss);
      opt.step();
      const n = x!.shape[0]!;
      lossSum += loss.item() * n;
      right += logits.argmax(1).eq(y!).sum().item();
      seen += n;
      x!.dispose();
      y!.dispose();
      step++;
      if (step % every === 0 || step === loader.length) {
        ms += performance.now() - t;
        o.log(
          `epoch ${epoch}/${o.epochs} step ${step}/${loader.length}: loss ${(lossSum / seen).toFixed(4)}, ` +
            `train acc ${percent(right / seen)}, ${((1000 * (samples + seen)) / ms).toFixed(0)} samples/s`,
        );
        t = performance.now();
      }
    }
    samples += seen;
    o.log(`epoch ${epoch}/${o.epochs}: held-out accuracy ${percent(await o.evaluate())}`);
  }
  return { samples, seconds: ms / 1000 };
}
