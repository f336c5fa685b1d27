import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tensor } from '@wiregrad/autograd';
import { load } from '@wiregrad/nn';
import type { DemoConfig } from '../cli.js';
import { accuracyOf, predict } from './mnist.js';
import {
  DDP_DTYPE,
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

/** The tolerance on |DDP's parameters - the one-process reference's| (Note [DDP parity with one process]). */
export const PARITY_TOLERANCE = 1e-5;

const launcher = fileURLToPath(
  new URL('../../node_modules/@wiregrad/distributed/bin/wiregrad-run.mjs', import.meta.url),
);
const worker = fileURLToPath(new URL('./ddpWorker.ts', import.meta.url));
const percent = (a: number) => `${(100 * a).toFixed(1)} %`;

/**
 * `wiregrad-run --nproc-per-node <workers> --standalone ddpWorker.ts`: its output goes to ours as
 * it comes (each line prefixed with its rank), but for each rank's `result {json}` line, which is
 * returned. Resolves when the launcher exits.
 */
function runRanks(c: DemoConfig, settings: DdpSettings): Promise<{ code: number | null; results: RankResult[] }> {
  const child = spawn(process.execPath, [launcher, '--nproc-per-node', String(c.workers), '--standalone', worker], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      [DDP_SETTINGS_ENV]: JSON.stringify(settings),
      // the ranks load the workspace's packages from their sources, as the demo does
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=source`.trim(),
    },
  });
  const results: RankResult[] = [];
  const result = new RegExp(`^\\[rank\\d+\\]: ${RESULT_PREFIX}(\\{.*\\})$`);
  let rest = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    const lines = (rest + d).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      const m = result.exec(line);
      if (m) results.push(JSON.parse(m[1]!) as RankResult);
      else console.log(line);
    }
  });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => done({ code, results }));
  });
}

/** The largest |a - b| over two state dicts' tensors, key by key. */
function maxAbsDiff(a: Record<string, Tensor>, b: Record<string, Tensor>): number {
  let max = 0;
  for (const [k, t] of Object.entries(a)) {
    const other = b[k];
    if (!other) throw new Error(`the DDP model's state has '${k}', the one-process model's has not`);
    max = Math.max(max, t.sub(other).abs().max().item());
  }
  return max;
}

/**
 * `pnpm demo ddp`: the mnist convnet trained with DistributedDataParallel on `workers` processes
 * started by wiregrad-run (each printing its progress), then in this process on the full batch
 * of workers x batchSize digits, the same digits in the same steps (Note [DDP parity with one
 * process]). Prints both held-out accuracies and samples/s, and checks that the final parameters
 * agree within PARITY_TOLERANCE and are the same on every rank (exit 1 if not).
 */
export async function runDdp(c: DemoConfig): Promise<number> {
  const t0 = performance.now();
  const outDir = resolve(c.out);
  mkdirSync(outDir, { recursive: true });
  const settings: DdpSettings = {
    seed: c.seed,
    trainSize: c.trainSize,
    testSize: c.testSize,
    epochs: c.epochs,
    batchSize: c.batchSize,
    lr: c.lr,
    weights: resolve(outDir, 'mnist-ddp.safetensors'),
  };
  const full = c.workers * c.batchSize;
  console.log(
    `wiregrad demo: MNIST convnet with DistributedDataParallel on ${c.workers} processes (wiregrad-run), ` +
      `${c.trainSize} training and ${c.testSize} held-out digits, ${c.epochs} epochs, batch ${c.batchSize} per process ` +
      `(${full} in all), lr ${c.lr}, ${DDP_DTYPE}; then one process on batches of ${full}`,
  );
  const { code, results } = await runRanks(c, settings);
  if (code !== 0 || results.length !== c.workers) {
    console.error(
      `wiregrad demo: wiregrad-run exited with code ${code} (${results.length} of ${c.workers} ranks done)`,
    );
    return 1;
  }
  results.sort((a, b) => a.rank - b.rank);

  console.log(`one process, batches of ${full} digits:`);
  const data = await ddpData(settings);
  const model = ddpConvnet(c.seed);
  const evaluate = async () => accuracyOf(await predict((b) => model.forward(b), data.test.x), data.test.y);
  const single = await trainEpochs({
    model,
    forward: (x) => model.forward(x),
    backward: (loss) => loss.backward(),
    train: data.train,
    sampler: samplerFor(c.trainSize, 1, 0, c.seed),
    batchSize: full,
    epochs: c.epochs,
    lr: c.lr,
    log: (line) => console.log(`[one process]: ${line}`),
    evaluate,
  });
  const singleAcc = await evaluate();

  const diff = maxAbsDiff(await load(settings.weights), model.stateDict());
  const sameOnEveryRank = results.every((r) => r.digest === results[0]!.digest);
  const ddpSamplesPerSec = results.reduce((s, r) => s + r.samples, 0) / Math.max(...results.map((r) => r.seconds));
  const singleSamplesPerSec = single.samples / single.seconds;
  console.log(`weights: ${settings.weights}`);
  console.log(
    `held-out accuracy: ${percent(results[0]!.testAcc)} with DDP on ${c.workers} processes, ` +
      `${percent(singleAcc)} in one process (${c.testSize} digits)`,
  );
  console.log(
    `samples/s: ${singleSamplesPerSec.toFixed(0)} in 1 process, ${ddpSamplesPerSec.toFixed(0)} on ${c.workers} ` +
      `processes together (${(ddpSamplesPerSec / singleSamplesPerSec).toFixed(2)}x; training steps only)`,
  );
  console.log(
    `parameters: the same on every rank: ${sameOnEveryRank ? 'yes' : 'NO'} (${results.map((r) => r.digest).join(', ')}); ` +
      `one process ${digestOf(model.parameters())}; largest |DDP - one process| ${diff.toExponential(2)} ` +
      `(${diff <= PARITY_TOLERANCE ? 'within' : 'NOT within'} ${PARITY_TOLERANCE.toExponential()})`,
  );
  console.log(`total wall time ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return sameOnEveryRank && diff <= PARITY_TOLERANCE ? 0 : 1;
}
