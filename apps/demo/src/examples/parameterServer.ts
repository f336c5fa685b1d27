import { manualSeed, noGrad, type Tensor } from '@wiregrad/autograd';
import { Linear, ReLU, Sequential, crossEntropy } from '@wiregrad/autograd/nn';
import { SGD } from '@wiregrad/autograd/optim';
import { RRef, register, rpcSync } from '@wiregrad/rpc';
import { DistributedOptimizer, backward, context } from '@wiregrad/dist-autograd';
import type { DemoConfig } from '../cli.js';
import { accuracy, batches, loadIris } from '../data/iris.js';
import { report } from '../protocol.js';

let model: Sequential | null = null;
let finishedTrainers = 0;

/**
 * Steps hold the server's lock from forward to optimizer step: an optimizer step changes the
 * parameters in place, which would (rightly) fail the backward of another trainer's forward
 * that saved them (PyTorch's in-place version check). So trainers take turns per step.
 */
let lockTail: Promise<void> = Promise.resolve();
let unlock: (() => void) | null = null;
register('ps.lock', async () => {
  const prev = lockTail;
  let release!: () => void;
  lockTail = new Promise<void>((r) => (release = r));
  await prev;
  unlock = release;
  return true;
});
register('ps.unlock', () => {
  const u = unlock;
  unlock = null;
  u?.();
  return true;
});

/** The parameter server's side: it owns the model; trainers call these by name. */
register('ps.init', (seed: number) => {
  if (!model) {
    manualSeed(seed);
    model = new Sequential(new Linear(4, 16), new ReLU(), new Linear(16, 3));
  }
  return model.parameters().map((p) => new RRef(p));
});
register('ps.forward', (x: Tensor) => model!.forward(x));
register('ps.predict', (x: Tensor) => noGrad(() => model!.forward(x)));
register('ps.trainerDone', () => ++finishedTrainers);

/** A trainer: its half of Iris, forward through the server, distributed backward, DistributedOptimizer. */
export async function trainer(c: DemoConfig, rank: number): Promise<void> {
  const label = `trainer ${rank}`;
  const data = loadIris(c.seed, c.workers - 1);
  const mine = data.train[rank - 1]!;
  const params = await rpcSync<RRef<Tensor>[]>('ps', 'ps.init', [c.seed]);
  const opt = new DistributedOptimizer(SGD, params, { lr: c.lr, momentum: 0.9 });
  const t0 = performance.now();
  let steps = 0;
  for (let epoch = 1; epoch <= c.epochs; epoch++) {
    const bs = batches(mine, c.batchSize);
    let lossSum = 0;
    let accSum = 0;
    for (const [i, b] of bs.entries()) {
      await rpcSync('ps', 'ps.lock');
      try {
        await context(async (id) => {
          const logits = await rpcSync<Tensor>('ps', 'ps.forward', [b.x]);
          const loss = crossEntropy(logits, b.y);
          await backward(id, [loss]);
          await opt.step(id);
          lossSum += loss.item();
          accSum += accuracy(logits, b.y);
        });
      } finally {
        await rpcSync('ps', 'ps.unlock');
      }
      steps++;
      const secs = (performance.now() - t0) / 1000;
      report({ type: 'progress', rank, label, epoch, step: i + 1, steps: bs.length, loss: lossSum / (i + 1), acc: accSum / (i + 1), stepsPerSec: steps / secs });
    }
    const testAcc = accuracy(await rpcSync<Tensor>('ps', 'ps.predict', [data.test.x]), data.test.y);
    report({ type: 'epoch', rank, label, epoch, loss: lossSum / bs.length, acc: accSum / bs.length, testAcc });
  }
  const seconds = (performance.now() - t0) / 1000;
  await rpcSync('ps', 'ps.trainerDone');
  const testAcc = accuracy(await rpcSync<Tensor>('ps', 'ps.predict', [data.test.x]), data.test.y);
  report({ type: 'result', rank, label, testAcc, lines: [`[${label}] held-out accuracy: ${(100 * testAcc).toFixed(1)}% on ${data.test.y.numel} Iris flowers`] });
  await Promise.all(params.map((p) => p.release()));
  await reportStats(rank, label, steps, seconds);
}

export async function reportStats(rank: number, label: string, steps: number, seconds: number): Promise<void> {
  const { getRpcStats } = await import('@wiregrad/rpc');
  const s = getRpcStats();
  report({ type: 'stats', rank, label, steps, seconds, bytesSent: s.bytesSent, bytesReceived: s.bytesReceived });
}
