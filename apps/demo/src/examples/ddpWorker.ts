// One rank of `pnpm demo ddp`, the script wiregrad-run starts on every rank (RANK, WORLD_SIZE,
// MASTER_ADDR, MASTER_PORT from it; the demo's settings as JSON in WIREGRAD_DEMO_DDP). Each line
// it prints reaches the demo prefixed with its rank.
import { tensor } from '@wiregrad/autograd';
import { save } from '@wiregrad/nn';
import {
  DistributedDataParallel,
  allReduce,
  barrier,
  destroyProcessGroup,
  getRank,
  getWorldSize,
  initProcessGroup,
} from '@wiregrad/distributed';
import { accuracyOf, predict } from './mnist.js';
import {
  DDP_SETTINGS_ENV,
  type DdpSettings,
  type RankResult,
  RESULT_PREFIX,
  ddpConvnet,
  ddpData,
  digestOf,
  samplerFor,
  trainEpochs,
} from './ddpTraining.js';

const settings = JSON.parse(process.env[DDP_SETTINGS_ENV] ?? 'null') as DdpSettings | null;
if (!settings) throw new Error(`${DDP_SETTINGS_ENV} is not set: this script is started by pnpm demo ddp`);

await initProcessGroup();
const rank = getRank();
const world = getWorldSize();
const data = await ddpData(settings);
const model = ddpConvnet(settings.seed);
const ddp = new DistributedDataParallel(model);
await ddp.ready; // every rank now holds rank 0's parameters
const sampler = samplerFor(settings.trainSize, world, rank, settings.seed);
console.log(
  `${sampler.length} training digits an epoch (positions ${rank}, ${rank + world}, ${rank + 2 * world}, ... of its shuffle), ` +
    `batch ${settings.batchSize}`,
);

/** The held-out accuracy of the whole group: each rank predicts a contiguous share, the counts are summed. */
async function heldOutAccuracy(): Promise<number> {
  const n = settings!.testSize;
  const from = Math.floor((rank * n) / world);
  const len = Math.floor(((rank + 1) * n) / world) - from;
  const x = data.test.x.narrow(0, from, len);
  const right = tensor([accuracyOf(await predict((b) => model.forward(b), x), data.test.y.narrow(0, from, len)) * len]);
  await allReduce(right);
  return right.item() / n;
}

const { samples, seconds } = await trainEpochs({
  model,
  forward: (x) => ddp.call(x),
  backward: (loss) => loss.backwardAsync(),
  train: data.train,
  sampler,
  batchSize: settings.batchSize,
  epochs: settings.epochs,
  lr: settings.lr,
  log: (line) => console.log(line),
  evaluate: heldOutAccuracy,
});
const testAcc = await heldOutAccuracy();
console.log(`trained on ${samples} digits in ${seconds.toFixed(1)} s: ${(samples / seconds).toFixed(0)} samples/s`);
if (rank === 0)
  await save(model.stateDict(), settings.weights, { metadata: { format: 'pt', model: 'wiregrad demo ddp' } });
const result: RankResult = { rank, samples, seconds, digest: digestOf(model.parameters()), testAcc };
console.log(RESULT_PREFIX + JSON.stringify(result));
await barrier(); // every rank is done before the group goes
await destroyProcessGroup();
