import { manualSeed, type Tensor } from '@wiregrad/autograd';
import { Linear, type Module, ReLU, Sequential, crossEntropy } from '@wiregrad/nn';
import { SGD } from '@wiregrad/nn/optim';
import { RRef, register, rpcSync } from '@wiregrad/rpc';
import { DistributedOptimizer, backward, context } from '@wiregrad/dist-autograd';
import type { DemoConfig } from '../cli.js';
import { accuracy, batches, loadIris } from '../data/iris.js';
import { report, reportStats } from '../protocol.js';

/** Stage k of the network, built from seed + k so that a one-process copy starts identical. */
function buildStage(stage: number, seed: number): Module {
  manualSeed(seed + stage);
  return stage === 0 ? new Sequential(new Linear(4, 16), new ReLU()) : new Linear(16, 3);
}

let stageModule: Module | null = null;
register('stage.init', (stage: number, seed: number) => {
  stageModule = buildStage(stage, seed);
  return stageModule.parameters().map((p) => new RRef(p));
});
register('stage.forward', (x: Tensor) => stageModule!.forward(x));

/**
 * The driver: stage 0 on worker1, stage 1 on worker2; activations go forward and gradients
 * come back over the wire every step. The same network, trained here in one process from the
 * same seed and batches, gives the reference losses.
 */
export async function driver(c: DemoConfig): Promise<void> {
  const label = 'driver';
  const data = loadIris(c.seed, 1);
  const train = data.train[0]!;
  const params = [
    ...(await rpcSync<RRef<Tensor>[]>('worker1', 'stage.init', [0, c.seed])),
    ...(await rpcSync<RRef<Tensor>[]>('worker2', 'stage.init', [1, c.seed])),
  ];
  const opt = new DistributedOptimizer(SGD, params, { lr: c.lr, momentum: 0.9 });
  const local = new Sequential(buildStage(0, c.seed), buildStage(1, c.seed));
  const localOpt = new SGD(local.parameters(), { lr: c.lr, momentum: 0.9 });
  const t0 = performance.now();
  let steps = 0;
  let maxDiff = 0;
  for (let epoch = 1; epoch <= c.epochs; epoch++) {
    const bs = batches(train, c.batchSize);
    let lossSum = 0;
    let refSum = 0;
    let accSum = 0;
    for (const [i, b] of bs.entries()) {
      await context(async (id) => {
        const h = await rpcSync<Tensor>('worker1', 'stage.forward', [b.x]);
        const logits = await rpcSync<Tensor>('worker2', 'stage.forward', [h]);
        const loss = crossEntropy(logits, b.y);
        await backward(id, [loss]);
        await opt.step(id);
        lossSum += loss.item();
        accSum += accuracy(logits, b.y);
      });
      localOpt.zeroGrad();
      const ref = crossEntropy(local.forward(b.x), b.y);
      ref.backward();
      localOpt.step();
      refSum += ref.item();
      maxDiff = Math.max(maxDiff, Math.abs(refSum - lossSum) / (i + 1));
      steps++;
      report({
        type: 'progress',
        rank: 0,
        label,
        epoch,
        step: i + 1,
        steps: bs.length,
        loss: lossSum / (i + 1),
        acc: accSum / (i + 1),
        stepsPerSec: steps / ((performance.now() - t0) / 1000),
      });
    }
    report({
      type: 'epoch',
      rank: 0,
      label,
      epoch,
      loss: lossSum / bs.length,
      acc: accSum / bs.length,
      testAcc: null,
      reference: refSum / bs.length,
    });
  }
  const seconds = (performance.now() - t0) / 1000;
  const h = await rpcSync<Tensor>('worker1', 'stage.forward', [data.test.x]);
  const testAcc = accuracy(await rpcSync<Tensor>('worker2', 'stage.forward', [h]), data.test.y);
  report({
    type: 'result',
    rank: 0,
    label,
    testAcc,
    maxLossDiff: maxDiff,
    lines: [
      `[driver] model parallel over 2 workers vs one process, same seed: largest per-epoch loss difference ${maxDiff.toExponential(2)} (float32 tolerance 1e-5: ${maxDiff < 1e-5 ? 'match' : 'MISMATCH'})`,
      `[driver] held-out accuracy: ${(100 * testAcc).toFixed(1)}%`,
    ],
  });
  await Promise.all(params.map((p) => p.release()));
  await reportStats(0, label, { steps, seconds });
}
