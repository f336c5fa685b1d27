// One rank of `pnpm demo names --ddp` (apps/demo/src/examples/namesDdp.ts launches two through wiregrad-run):
// the whole character Transformer on every rank, wrapped in DistributedDataParallel; each rank trains on its
// half of every batch of the pipeline version (the same seeded draws), so the two together take the steps the
// single model takes on the whole batch. Rank 0 reports, samples and saves.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { mkdir } from 'node:fs/promises';
import { noGrad, type Tensor, tensor } from '@wiregrad/autograd';
import { crossEntropy, save } from '@wiregrad/nn';
import { AdamW } from '@wiregrad/nn/optim';
import {
  DistributedDataParallel,
  allReduce,
  barrier,
  destroyProcessGroup,
  getRank,
  getWorldSize,
  initProcessGroup,
} from '@wiregrad/distributed';
import { encodeBatch, loadNames } from '../data/names.js';
import { mulberry32 } from '../data/seededRandom.js';
import { writePlot } from '../report/plot.js';
import { NamesTransformer, sampleNames } from './namesModel.js';

const { values: v } = parseArgs({
  options: {
    steps: { type: 'string' },
    'batch-size': { type: 'string' },
    lr: { type: 'string' },
    seed: { type: 'string' },
    out: { type: 'string' },
  },
});
const [steps, batchSize, lr, seed] = [v.steps, v['batch-size'], v.lr, v.seed].map(Number) as [
  number,
  number,
  number,
  number,
];
const out = v.out!;
/** Held-out loss every this many steps, as the pipeline version (names.ts) reports it. */
const EVAL_EVERY = 100;

await initProcessGroup(); // RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT from wiregrad-run
const [rank, world] = [getRank(), getWorldSize()];
const say = (line: string) => rank === 0 && console.log(line);
const data = loadNames(seed);
const [vocab, block] = [data.itos.length, data.blockSize];
const model = new NamesTransformer(vocab, block, seed);
const ddp = new DistributedDataParallel(model);
await ddp.ready;
const opt = new AdamW(ddp.parameters(), { lr });

/** This rank's share [lo, hi) of `n` items. */
const share = (n: number) => [Math.floor((rank * n) / world), Math.floor(((rank + 1) * n) / world)] as const;
/** Characters a batch of names is scored on: each name's letters and its end marker. */
const charsOf = (names: readonly string[]) => names.reduce((s, n) => s + n.length + 1, 0);

/** The two ranks' sums of `values`, as numbers. */
async function summed(values: number[]): Promise<number[]> {
  const t = tensor(values, { dtype: 'float64' });
  await allReduce(t);
  return t.tolist() as number[];
}

/** Held-out cross-entropy per character, each rank scoring its share of the held-out names. */
async function heldOutLoss(): Promise<number> {
  const [lo, hi] = share(data.test.length);
  let sum = 0;
  for (let i = lo; i < hi; i += 512) {
    const { x, y } = encodeBatch(data.test.slice(i, Math.min(i + 512, hi)), data.stoi);
    const logits = noGrad(() => model.forward(x));
    sum += crossEntropy(logits.reshape([-1, vocab]), y, { ignoreIndex: -1, reduction: 'sum' }).item();
  }
  const [total] = await summed([sum]);
  return total! / charsOf(data.test);
}

say(
  `wiregrad demo: character Transformer, DistributedDataParallel on ${world} processes (wiregrad-run), ${batchSize / world} names each a step`,
);
const rand = mulberry32(seed + 1);
const curves = { train: [] as number[], heldOut: [] as number[] };
const t0 = performance.now();
let [lossSum, charSum] = [0, 0];
for (let step = 1; step <= steps; step++) {
  // the pipeline version's batch (the same draws on every rank), this rank's share of it
  const batch = Array.from({ length: batchSize }, () => data.train[Math.floor(rand() * data.train.length)]!);
  const [lo, hi] = share(batchSize);
  const { x, y } = encodeBatch(batch.slice(lo, hi), data.stoi);
  opt.zeroGrad();
  const sum = crossEntropy(ddp.call(x).reshape([-1, vocab]), y, { ignoreIndex: -1, reduction: 'sum' });
  // DDP averages the ranks' gradients: scaled by world / (the whole batch's characters), their mean is
  // the gradient of the whole batch's mean loss, the pipeline version's
  await sum.mul(world / charsOf(batch)).backwardAsync();
  opt.step();
  lossSum += sum.item();
  charSum += charsOf(batch.slice(lo, hi));
  if (step % EVAL_EVERY === 0 || step === steps) {
    const [trainSum, trainChars] = await summed([lossSum, charSum]);
    const train = trainSum! / trainChars!;
    const heldOut = await heldOutLoss();
    curves.train.push(train);
    curves.heldOut.push(heldOut);
    const rate = step / ((performance.now() - t0) / 1000);
    say(
      `[rank 0] step ${step}/${steps} train loss ${train.toFixed(4)} held-out ${heldOut.toFixed(4)} nats/char (${rate.toFixed(1)} steps/s)`,
    );
    [lossSum, charSum] = [0, 0];
  }
}
const seconds = (performance.now() - t0) / 1000;
if (rank === 0) {
  const samples = await sampleNames((x) => noGrad(() => model.forward(x)), data.itos, block, 20, seed + 2);
  const train = new Set(data.train);
  const path = resolve(out, 'names.safetensors');
  await mkdir(out, { recursive: true });
  const sd: Record<string, Tensor> = model.stateDict();
  await save(sd, path, { metadata: { itos: data.itos.join(''), seed: String(seed), blockSize: String(block) } });
  const plot = await writePlot(
    resolve(out, 'names-ddp-training.svg'),
    `wiregrad names demo (DistributedDataParallel, ${world} processes)`,
    [
      { source: 'train', measure: 'loss (nats/char)', values: curves.train },
      { source: 'held-out', measure: 'loss (nats/char)', values: curves.heldOut },
    ],
    [],
  );
  for (const line of [
    `[names] ${data.train.length} training / ${data.test.length} held-out names, ${vocab} symbols; ${steps} steps of ${batchSize} names (${batchSize / world} per process) in ${seconds.toFixed(1)} s`,
    `[names] held-out loss ${curves.heldOut.at(-1)!.toFixed(4)} nats/char`,
    `[names] ${samples.length} sampled names (${samples.filter((s) => !train.has(s)).length} not in the training set): ${samples.join(', ')}`,
    `[names] checkpoint: ${path}`,
    `[names] plot: ${plot}`,
  ])
    console.log(line);
}
await barrier(); // rank 0 has saved before any rank leaves the group
await destroyProcessGroup();
