import { mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { noGrad, type Tensor } from '@wiregrad/autograd';
import { crossEntropy, load, safetensorsMetadata, save } from '@wiregrad/nn';
import { AdamW } from '@wiregrad/nn/optim';
import { RRef, register, rpcSync } from '@wiregrad/rpc';
import { DistributedOptimizer, backward, context } from '@wiregrad/dist-autograd';
import type { DemoConfig } from '../cli.js';
import { encodeBatch, loadNames, type NamesData } from '../data/names.js';
import { mulberry32 } from '../data/seededRandom.js';
import { report, reportStats } from '../protocol.js';
import { NamesTransformer, sampleNames } from './namesModel.js';

/** Held-out loss and a point on the plot every this many steps. */
export const EVAL_EVERY = 100;
const SAMPLES = 20;

// ---- the two pipeline stages (worker1: embeddings and the first layer; worker2: the rest) ----
let model: NamesTransformer | null = null;
let stageOf: 0 | 1 = 0;
register('names.init', (stage: 0 | 1, seed: number, vocab: number, blockSize: number) => {
  // every stage builds the whole model from the seed, so the pipeline starts as one model would
  model = new NamesTransformer(vocab, blockSize, seed);
  stageOf = stage;
  return model.stageModules(stage).flatMap((m) => m.parameters().map((p) => new RRef(p)));
});
register('names.forward', (x: Tensor) => model!.stageForward(stageOf, x));
register('names.infer', (x: Tensor) => noGrad(() => model!.stageForward(stageOf, x)));
register('names.stateDict', (): [string[], Tensor[]] => {
  const own = new Set(model!.stageModules(stageOf).flatMap((m) => m.parameters()));
  const entries = model!.namedParameters().filter(([, p]) => own.has(p));
  return [entries.map(([k]) => k), entries.map(([, p]) => p.detach())];
});

const forward = async (rpc: 'names.forward' | 'names.infer', x: Tensor) =>
  rpcSync<Tensor>('worker2', rpc, [await rpcSync<Tensor>('worker1', rpc, [x])]);

/** Mean cross-entropy per character (the end marker included) over `names`, in nats. */
async function heldOutLoss(names: readonly string[], data: NamesData): Promise<number> {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < names.length; i += 512) {
    const { x, y } = encodeBatch(names.slice(i, i + 512), data.stoi);
    const logits = await forward('names.infer', x);
    sum += crossEntropy(logits.reshape([-1, data.itos.length]), y, { ignoreIndex: -1, reduction: 'sum' }).item();
    count += (y.toTypedArray() as Int32Array).filter((t) => t >= 0).length;
  }
  return sum / count;
}

/** The lines that list sampled names and say how many are new. */
function sampleLines(samples: string[], train: ReadonlySet<string>): string[] {
  const fresh = samples.filter((s) => !train.has(s)).length;
  return [`[names] ${samples.length} sampled names (${fresh} not in the training set): ${samples.join(', ')}`];
}

/**
 * The driver of `pnpm demo names`: the character Transformer split over worker1 and worker2,
 * activations forward and gradients back over RPC (dist-autograd), AdamW on each stage through
 * DistributedOptimizer; random batches of training names from a seeded generator. Reports the
 * training loss and the held-out loss every EVAL_EVERY steps, then samples names and writes the
 * checkpoint (PyTorch's keys for the same module).
 */
export async function namesDriver(c: DemoConfig): Promise<void> {
  const label = 'driver';
  const data = loadNames(c.seed);
  const [vocab, block] = [data.itos.length, data.blockSize];
  const params = [
    ...(await rpcSync<RRef<Tensor>[]>('worker1', 'names.init', [0, c.seed, vocab, block])),
    ...(await rpcSync<RRef<Tensor>[]>('worker2', 'names.init', [1, c.seed, vocab, block])),
  ];
  const opt = new DistributedOptimizer(AdamW, params, { lr: c.lr });
  const rand = mulberry32(c.seed + 1);
  const intervals = Math.ceil(c.steps / EVAL_EVERY);
  const t0 = performance.now();
  let lossSum = 0;
  let inInterval = 0;
  for (let step = 1; step <= c.steps; step++) {
    const batch = Array.from({ length: c.batchSize }, () => data.train[Math.floor(rand() * data.train.length)]!);
    const { x, y } = encodeBatch(batch, data.stoi);
    await context(async (id) => {
      const logits = await forward('names.forward', x);
      const loss = crossEntropy(logits.reshape([-1, vocab]), y, { ignoreIndex: -1 });
      await backward(id, [loss]);
      await opt.step(id);
      lossSum += loss.item();
    });
    inInterval++;
    const epoch = Math.ceil(step / EVAL_EVERY);
    const stepsHere = Math.min(EVAL_EVERY, c.steps - (epoch - 1) * EVAL_EVERY);
    report({
      type: 'progress',
      rank: 0,
      label,
      epoch,
      step: inInterval,
      steps: stepsHere,
      loss: lossSum / inInterval,
      acc: Number.NaN,
      stepsPerSec: step / ((performance.now() - t0) / 1000),
    });
    if (inInterval === stepsHere) {
      const heldOut = await heldOutLoss(data.test, data);
      const train = lossSum / inInterval;
      report({
        type: 'epoch',
        rank: 0,
        label,
        epoch,
        loss: train,
        acc: Number.NaN,
        testAcc: null,
        heldOutLoss: heldOut,
        line: `[${label}] step ${step}/${c.steps} train loss ${train.toFixed(4)} held-out ${heldOut.toFixed(4)} nats/char (${intervals - epoch} evaluations to go)`,
      });
      [lossSum, inInterval] = [0, 0];
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const heldOut = await heldOutLoss(data.test, data);
  const samples = await sampleNames((x) => forward('names.infer', x), data.itos, block, SAMPLES, c.seed + 2);
  const sd: Record<string, Tensor> = {};
  for (const w of ['worker1', 'worker2']) {
    const [keys, tensors] = await rpcSync<[string[], Tensor[]]>(w, 'names.stateDict', []);
    keys.forEach((k, i) => (sd[k] = tensors[i]!));
  }
  const path = resolve(c.out, 'names.safetensors');
  await mkdir(c.out, { recursive: true });
  await save(sd, path, { metadata: { itos: data.itos.join(''), seed: String(c.seed), blockSize: String(block) } });
  report({
    type: 'result',
    rank: 0,
    label,
    lines: [
      `[names] ${data.train.length} training / ${data.test.length} held-out names, ${vocab} symbols; ${c.steps} steps of ${c.batchSize} names in ${seconds.toFixed(1)} s`,
      `[names] held-out loss ${heldOut.toFixed(4)} nats/char`,
      ...sampleLines(samples, new Set(data.train)),
      `[names] checkpoint: ${path}`,
    ],
  });
  await Promise.all(params.map((p) => p.release()));
  await reportStats(0, label, { steps: c.steps, seconds });
}

/** `pnpm demo names --sample --from FILE`: names from a saved model, in this process. */
export async function runNamesSample(c: DemoConfig): Promise<number> {
  const path = resolve(c.from!);
  const sd = await load(path);
  const meta = safetensorsMetadata(new Uint8Array(await readFile(path)));
  const itos = [...(meta.itos ?? '')];
  const block = Number(meta.blockSize);
  const m = new NamesTransformer(itos.length, block, 0);
  m.loadStateDict(sd);
  m.eval();
  const samples = await sampleNames((x) => noGrad(() => m.forward(x)), itos, block, SAMPLES, c.seed + 2);
  const train = new Set(loadNames(Number(meta.seed ?? 0)).train);
  for (const l of sampleLines(samples, train)) console.log(l);
  return 0;
}
