// Memory of the cpu device over a training run, and graph memory per node (issue: the cpu device at the machine's limit).
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { memory, randn, tensor, type Tensor } from '@wiregrad/autograd';
import { Linear, ReLU, Sequential, crossEntropy } from '@wiregrad/nn';
import { SGD } from '@wiregrad/nn/optim';
import { loadLine } from './machine.js';
import { compare, printRows, type Row } from './report.js';
import { oursMlp } from './torch.bench.js';

const STEPS = Number(process.env.WIREGRAD_BENCH_MLP_STEPS ?? 10_000);
const MB = (n: number) => (n / 2 ** 20).toFixed(1);

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** GC pauses seen while `fn` runs: count and total ms. */
async function withGcPauses(fn: () => void): Promise<{ count: number; ms: number }> {
  const pauses = { count: 0, ms: 0 };
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      pauses.count++;
      pauses.ms += e.duration;
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  fn();
  await new Promise((r) => setTimeout(r, 50)); // entries are delivered asynchronously
  obs.disconnect();
  return pauses;
}

/** The MLP step as before release existed: zeroGrad to none, every tensor left to the GC. */
function droppedMlp(): () => void {
  const model = new Sequential(new Linear(784, 256), new ReLU(), new Linear(256, 10));
  const opt = new SGD(model.parameters(), { lr: 0.01 });
  const xs = randn([64, 784]);
  const ys = tensor(Int32Array.from({ length: 64 }, (_, i) => i % 10));
  return () => {
    opt.zeroGrad();
    crossEntropy(model.forward(xs), ys).backward();
    opt.step();
  };
}

async function trainingRun(
  label: string,
  step: () => void,
  steps: number,
): Promise<{ msPerStep: number; gcMsPerStep: number; maxRssMB: number }> {
  const samples: Record<string, string | number>[] = [];
  const every = Math.max(1, Math.floor(steps / 10));
  let ms = 0;
  let maxRss = 0;
  const gc = await withGcPauses(() => {
    const start = performance.now();
    for (let i = 1; i <= steps; i++) {
      step();
      if (i % every === 0) {
        const m = memory();
        const rss = process.memoryUsage();
        maxRss = Math.max(maxRss, rss.rss);
        samples.push({
          step: i,
          'rss MB': MB(rss.rss),
          'heap MB': MB(rss.heapUsed),
          'external MB': MB(rss.external + rss.arrayBuffers),
          'live cpu MB': MB(m.cpuBytes),
          'cached MB': MB(m.cpuCachedBytes),
          'cache misses': m.cpuCacheMisses,
        });
      }
    }
    ms = performance.now() - start;
  });
  console.log(
    `\n### ${label}: ${steps} steps, ${(ms / steps).toFixed(2)} ms/step, ${gc.count} GC pauses, ${(gc.ms / steps).toFixed(3)} ms GC/step`,
  );
  console.table(samples);
  return { msPerStep: ms / steps, gcMsPerStep: gc.ms / steps, maxRssMB: maxRss / 2 ** 20 };
}

/** Heap per op of a scalar chain y = y.mul(1.0001).add(0.0001), alive and after backward. */
function graphMemory(ops: number): { alive: number; released: number; rssMB: number } {
  const x = tensor(1.5, { requiresGrad: true });
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  let y: Tensor = x;
  for (let i = 0; i < ops / 2; i++) y = y.mul(1.0001).add(0.0001);
  collectGarbage();
  const alive = (process.memoryUsage().heapUsed - before) / ops;
  const rssMB = process.memoryUsage().rss / 2 ** 20;
  y.backward();
  collectGarbage();
  const released = (process.memoryUsage().heapUsed - before) / ops;
  return { alive, released, rssMB };
}

export async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  const released = await trainingRun('MLP 784-256-10 SGD step in tidy(), old gradients released', oursMlp(), STEPS);
  collectGarbage();
  const dropped = await trainingRun(
    'the same step with every tensor left to the GC',
    droppedMlp(),
    Math.min(STEPS, 2000),
  );
  // the target: a training loop written without tidy() stays under 200 MB resident
  console.log(
    `\n### RSS of the MLP loop without tidy(): at most ${dropped.maxRssMB.toFixed(0)} MB over its steps (target < 200 MB; process total, node and the modules included); ${loadLine()}`,
  );
  rows.push(
    compare(
      'MLP step ms, released vs left to the GC',
      ['released', released.msPerStep],
      ['left to the GC', dropped.msPerStep],
      0,
    ),
  );
  rows.push(
    compare('MLP step GC ms per step', ['released', released.gcMsPerStep], ['left to the GC', dropped.gcMsPerStep], 0),
  );
  collectGarbage();
  const g = graphMemory(100_000);
  console.log(
    `\n### graph memory, 100 000-op scalar chain: ${g.alive.toFixed(0)} B/op alive (target <= 1024), ${g.released.toFixed(0)} B/op after backward (target <= 300), rss ${g.rssMB.toFixed(0)} MB`,
  );
  printRows('memory', rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
