// Data-parallel training with DistributedDataParallel, one process per rank:
//   npx wiregrad-run --nproc-per-node 2 --max-restarts 3 train.ts
// (or under Slurm: srun -n 2 node --import tsx train.ts). Every rank trains on its own shard of
// each epoch (DistributedSampler); DDP averages the gradients, so every rank holds the same
// model. Rank 0 writes a checkpoint after each epoch; a restarted group resumes from it.
import { existsSync } from 'node:fs';
import { type Tensor, manualSeed, noGrad, randn, tensor } from '@wiregrad/autograd';
import { DataLoader, Linear, ReLU, Sequential, TensorDataset, crossEntropy, load, save } from '@wiregrad/nn';
import { SGD } from '@wiregrad/nn/optim';
import {
  DistributedDataParallel,
  DistributedSampler,
  allReduce,
  barrier,
  destroyProcessGroup,
  getRank,
  getWorldSize,
  initProcessGroup,
} from '@wiregrad/distributed';

const CHECKPOINT = process.env.CHECKPOINT ?? 'checkpoint.safetensors';
const EPOCHS = Number(process.env.EPOCHS ?? 8);

await initProcessGroup(); // RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: set by wiregrad-run (or Slurm's)
const rank = getRank();

// The same toy dataset on every rank: is a point inside the unit circle?
manualSeed(0);
const points = randn([2048, 2]);
const labels = tensor(
  Array.from({ length: 2048 }, (_, i) => (points.select(0, i).pow(2).sum().item() < 1 ? 1 : 0)),
  { dtype: 'int32' },
);
const dataset = new TensorDataset(points, labels);

const model = new Sequential(new Linear(2, 64), new ReLU(), new Linear(64, 2));
let start = 0;
if (existsSync(CHECKPOINT)) {
  const { epoch, ...weights } = await load(CHECKPOINT);
  model.loadStateDict(weights);
  start = epoch!.item();
  console.log(`resumed after epoch ${start}`);
}
const ddp = new DistributedDataParallel(model);
await ddp.ready; // every rank now holds rank 0's parameters
const opt = new SGD(ddp.parameters(), { lr: 0.1, momentum: 0.9 });
const sampler = new DistributedSampler(dataset, { seed: 1 });
const loader = new DataLoader(dataset, { batchSize: 32, sampler });

for (let epoch = start; epoch < EPOCHS; epoch++) {
  sampler.setEpoch(epoch); // a different shuffle each epoch, the same on every rank
  let total = 0;
  for (const [x, y] of loader) {
    opt.zeroGrad();
    const loss = crossEntropy(ddp.call(x!), y!);
    await loss.backwardAsync(); // resolves once the gradients are averaged across ranks
    opt.step();
    total += loss.item();
  }
  const mean = tensor([total / loader.length]);
  await allReduce(mean); // the loss summed over ranks
  if (rank === 0) {
    console.log(`epoch ${epoch + 1}: loss ${(mean.item() / getWorldSize()).toFixed(4)}`);
    await save({ ...model.stateDict(), epoch: tensor([epoch + 1], { dtype: 'int32' }) }, CHECKPOINT);
  }
  await barrier(); // the checkpoint is written before any rank goes on (or fails)
  // to see a restart resume: CRASH_ONCE_AFTER_EPOCH=2 kills rank 1 once, after that epoch
  const crash = Number(process.env.CRASH_ONCE_AFTER_EPOCH);
  if (rank === 1 && epoch + 1 === crash && process.env.TORCHELASTIC_RESTART_COUNT === '0') process.exit(1);
}

const accuracy = noGrad(() => {
  const predicted: Tensor = ddp.call(points).argmax(1);
  return predicted.eq(labels).to({ dtype: 'float32' }).mean().item();
});
console.log(`accuracy ${(accuracy * 100).toFixed(1)} %`);
await destroyProcessGroup();
