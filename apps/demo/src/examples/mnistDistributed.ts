import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { indexSelect, manualSeed, noGrad, setNumThreads, type Tensor, tensor } from '@wiregrad/autograd';
import { crossEntropy, functional as F, load, save, type Sequential } from '@wiregrad/nn';
import { RRef, getWorkerInfos, onWorkerLeave, register, rpcSync } from '@wiregrad/rpc';
import { DistributedOptimizer, backward, context } from '@wiregrad/dist-autograd';
import type { DemoConfig } from '../cli.js';
import { report } from '../protocol.js';
import { accuracyOf, makeConvnet, predict } from './mnist.js';
import { mulberry32 } from '../data/seededRandom.js';
import { loadMnist } from './mnistData.js';
import { OneCycleSGD, trainerPeakLr } from './mnistOptimizer.js';

/**
 * Note [MNIST over a parameter server]
 * `pnpm demo mnist --workers N`: the server (rank 0, "ps") owns the convnet's parameters; each of
 * the N-1 trainers takes its share of the training digits and, every step, inside a
 * dist-autograd context, fetches a snapshot of the parameters (`mnist.params`: clones, so the
 * optimizer may update the parameters in place meanwhile, as in Note [Parameter server over
 * dist-autograd]), runs the convnet forward and the loss in its own process (the compute is spread
 * over the trainers, unlike the Iris example whose forward runs on the server), then
 * distributed backward sends the gradients back through the RPC to the clones' parameters, and
 * DistributedOptimizer.step applies them on the server. Trainers never wait for each other.
 * A trainer that dies is dropped and the others train on (Note [Membership]). Trainers that are
 * done wait at `mnist.done` for every trainer still in the group (not for one that died); then
 * the one that finished last has the server save the model as .safetensors; that trainer
 * loads the file into a fresh model and checks it predicts the held-out digits as the
 * parameters it fetched last do.
 */
let model: Sequential | null = null;
let finished = 0;

register('mnist.init', (seed: number) => {
  if (!model) {
    manualSeed(seed);
    model = makeConvnet();
  }
  return model.parameters().map((p) => new RRef(p));
});
register('mnist.params', () => model!.parameters().map((p) => p.clone()));
/** Trainers that said they are done and wait for the rest: each hears whether it finished last. */
const doneWaiting: (() => void)[] = [];
function answerWhenAllDone(): void {
  if (getWorkerInfos().filter((w) => w.name !== 'ps').length - finished <= 0)
    for (const answer of doneWaiting.splice(0)) answer();
}
// a trainer that died is not waited for: the one that finished last among the others saves
onWorkerLeave(answerWhenAllDone);
/** A trainer is done: resolves once every trainer still in the group is, with whether this one finished last. */
register(
  'mnist.done',
  () =>
    new Promise<boolean>((resolve) => {
      const order = ++finished;
      doneWaiting.push(() => resolve(order === finished));
      answerWhenAllDone();
    }),
);
register('mnist.save', async (path: string) => {
  mkdirSync(resolve(path, '..'), { recursive: true });
  await save(model!.stateDict(), path, { metadata: { format: 'pt', model: 'wiregrad demo MNIST convnet' } });
  return path;
});

/** makeConvnet()'s forward, with its parameters given in `parameters()` order. */
export function forwardWith(p: Tensor[], x: Tensor): Tensor {
  let h = F.maxPool2d(F.relu(F.conv2d(x, p[0]!, p[1]!, { padding: 2 })), 2);
  h = F.maxPool2d(F.relu(F.conv2d(h, p[2]!, p[3]!)), 2);
  h = F.relu(F.linear(F.relu(F.linear(h.flatten(1), p[4]!, p[5]!)), p[6]!, p[7]!));
  return F.linear(h, p[8]!, p[9]!);
}

/** A trainer: its share of the training digits, the convnet run here on fetched parameters. */
export async function mnistTrainer(c: DemoConfig, rank: number): Promise<void> {
  const label = `trainer ${rank}`;
  const trainers = c.workers - 1;
  // the trainers share the machine's cores: each kernel pool gets its share, not all of them
  setNumThreads(Math.max(1, Math.floor(availableParallelism() / trainers)));
  const data = await loadMnist(c.seed, c.trainSize, c.testSize);
  const per = Math.ceil(c.trainSize / trainers);
  const from = (rank - 1) * per;
  const len = Math.min(per, c.trainSize - from);
  const x = data.train.x.narrow(0, from, len);
  const y = data.train.y.narrow(0, from, len);
  const params = await rpcSync<RRef<Tensor>[]>('ps', 'mnist.init', [c.seed]);
  const nBatches = Math.ceil(len / c.batchSize);
  // each trainer's optimizer steps the same parameters, asynchronously (Note [MNIST learning-rate schedule])
  const opt = new DistributedOptimizer(OneCycleSGD, params, {
    lr: trainerPeakLr(c.lr, trainers),
    totalSteps: nBatches * c.epochs,
  });
  const t0 = performance.now();
  let steps = 0;
  for (let epoch = 1; epoch <= c.epochs; epoch++) {
    // a seeded shuffle of this trainer's digits every epoch
    const order = Int32Array.from({ length: len }, (_, i) => i);
    const rand = mulberry32(c.seed * 100_003 + rank * 1009 + epoch);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    let lossSum = 0;
    let right = 0;
    let seen = 0;
    for (let b = 0; b < nBatches; b++) {
      const idx = order.subarray(b * c.batchSize, Math.min(len, (b + 1) * c.batchSize));
      const bx = indexSelect(x, 0, tensor(idx));
      const by = indexSelect(y, 0, tensor(idx));
      await context(async (id) => {
        const p = await rpcSync<Tensor[]>('ps', 'mnist.params');
        const logits = forwardWith(p, bx);
        const loss = crossEntropy(logits, by);
        await backward(id, [loss]);
        await opt.step(id);
        lossSum += loss.item() * idx.length;
        right += noGrad(() => logits.argmax(1).eq(by).sum().item());
      });
      seen += idx.length;
      steps++;
      report({
        type: 'progress',
        rank,
        label,
        epoch,
        step: b + 1,
        steps: nBatches,
        loss: lossSum / seen,
        acc: right / seen,
        stepsPerSec: steps / ((performance.now() - t0) / 1000),
      });
    }
    const p = await rpcSync<Tensor[]>('ps', 'mnist.params');
    const testAcc = accuracyOf(await predict((b) => forwardWith(p, b), data.test.x), data.test.y);
    report({ type: 'epoch', rank, label, epoch, loss: lossSum / seen, acc: right / seen, testAcc });
  }
  const seconds = (performance.now() - t0) / 1000;
  const lines: string[] = [];
  // no timeout: the others may train a while longer (a dead server still fails it, Note [Peer liveness])
  const last = await rpcSync<boolean>('ps', 'mnist.done', [], { timeout: 0 });
  let testAcc: number;
  if (last) {
    // the last trainer: the server saves the model; reload it here and compare predictions
    const final = await rpcSync<Tensor[]>('ps', 'mnist.params');
    const expected = await predict((b) => forwardWith(final, b), data.test.x);
    const path = await rpcSync<string>('ps', 'mnist.save', [resolve(c.out, 'mnist-convnet.safetensors')]);
    const reloaded = makeConvnet();
    reloaded.loadStateDict(await load(path));
    const got = await predict((b) => reloaded.forward(b), data.test.x);
    const differ = got.reduce((k, v, i) => k + (v === expected[i] ? 0 : 1), 0);
    if (differ > 0)
      throw new Error(`the reloaded model predicts ${differ} of ${got.length} held-out digits differently`);
    testAcc = accuracyOf(got, data.test.y);
    lines.push(`weights: ${path}`, `reloaded model: the same predictions on all ${got.length} held-out digits`);
    lines.push(
      `[${label}] held-out accuracy: ${(100 * testAcc).toFixed(1)}% on ${got.length} MNIST digits (model reloaded from ${path})`,
    );
  } else {
    const p = await rpcSync<Tensor[]>('ps', 'mnist.params');
    testAcc = accuracyOf(await predict((b) => forwardWith(p, b), data.test.x), data.test.y);
    lines.push(
      `[${label}] held-out accuracy when it finished: ${(100 * testAcc).toFixed(1)}% (another trainer finished last and had the model saved)`,
    );
  }
  lines.push(
    `[${label}] time per epoch: ${(seconds / c.epochs).toFixed(1)} s (${len} digits, ${(len / (seconds / c.epochs)).toFixed(0)} digits/s)`,
  );
  report({ type: 'result', rank, label, testAcc, lines });
  await Promise.all(params.map((p) => p.release()));
  const { getRpcStats } = await import('@wiregrad/rpc');
  const s = getRpcStats();
  report({ type: 'stats', rank, label, steps, seconds, bytesSent: s.bytesSent, bytesReceived: s.bytesReceived });
}
