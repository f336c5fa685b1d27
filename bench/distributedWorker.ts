// One rank of `pnpm bench distributed` (distributed.bench.ts starts it with torchrun's variables).
// BENCH_MODE=allreduce: median ms of allReduce per size; BENCH_MODE=ddp: ms per DDP step
// (BENCH_WIDTHS, batch 64 per rank; BENCH_GRAD_VIEWS=1 with gradientAsBucketView), a step without
// sync, and the all-reduce of the gradients alone. Rank 0 prints one JSON line per result. Every process runs at 1 thread.
import { manualSeed, randint, randn, setNumThreads, zeros } from '@wiregrad/autograd';
import { Linear, type Module, ReLU, Sequential, crossEntropy } from '@wiregrad/nn';
import { SGD } from '@wiregrad/nn/optim';
import {
  DistributedDataParallel,
  ReduceOp,
  allReduce,
  barrier,
  destroyProcessGroup,
  getRank,
  getWorldSize,
  initProcessGroup,
} from '@wiregrad/distributed';

setNumThreads(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const report = (r: Record<string, unknown>) => getRank() === 0 && console.log(JSON.stringify(r));

/**
 * The median of `iters` calls, after as many untimed ones (at least 2), on both sides alike
 * (torchDistPeer.py's timed): steady state, which a training run lives in. Two warm-up calls left
 * our 8-byte all-reduce on 4 processes partly in V8's baseline tiers: 0.84-0.93 ms over the first 50
 * calls, 0.58-0.92 over the next ones, 0.47-0.58 over 400 (gloo, native, needs none).
 */
async function timed(iters: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.max(2, iters); i++) await fn();
  await barrier();
  const times: number[] = [];
  for (let i = 0; i < iters; i++) {
    // a turn of the event loop between calls, untimed, for every mode alike: a step without
    // I/O never yields, so the GC's FinalizationRegistry callbacks never handed its last step's
    // freed storages back to the allocator, and 1 process paid fresh pages every step
    await new Promise((resolve) => setImmediate(resolve));
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

await initProcessGroup();
if (process.env.BENCH_MODE === 'allreduce') {
  const cases =
    process.env.BENCH_QUICK === '1' // the CI smoke run (distributed's benchSmoke spec)
      ? ([
          ['8 B', 8, 10],
          ['4 MiB', 4 << 20, 3],
        ] as const)
      : ([
          ['8 B', 8, 50],
          ['4 MiB', 4 << 20, 10],
          ['64 MiB', 64 << 20, 3],
        ] as const);
  for (const [label, bytes, iters] of cases) {
    const t = zeros([bytes / 4]);
    report({ case: label, ms: await timed(iters, () => allReduce(t)) });
  }
} else {
  const widths = (process.env.BENCH_WIDTHS ?? '784,256,10').split(',').map(Number);
  const layers: Module[] = [];
  for (let i = 0; i + 1 < widths.length; i++) {
    if (i > 0) layers.push(new ReLU());
    layers.push(new Linear(widths[i]!, widths[i + 1]!));
  }
  manualSeed(0);
  const model = new Sequential(...layers);
  const x = randn([64, widths[0]!]);
  const y = randint(0, widths.at(-1)!, [64], { dtype: 'int32' });
  const world = getWorldSize();
  // BENCH_GRAD_VIEWS=1: gradients as bucket views (Note [Gradients as bucket views]; torchDistPeer.py alike)
  const ddp =
    world > 1
      ? new DistributedDataParallel(model, { gradientAsBucketView: process.env.BENCH_GRAD_VIEWS === '1' })
      : null;
  await ddp?.ready;
  const opt = new SGD(model.parameters(), { lr: 0.01 });
  const step = async (sync: boolean) => {
    opt.zeroGrad();
    if (!ddp) crossEntropy(model.call(x), y).backward();
    else if (sync) await crossEntropy(ddp.call(x), y).backwardAsync();
    else ddp.noSync(() => crossEntropy(ddp.call(x), y).backward());
    opt.step();
  };
  const steps = Number(process.env.BENCH_STEPS ?? 30);
  const stepMs = await timed(steps, () => step(true));
  const localMs = ddp ? await timed(steps, () => step(false)) : stepMs;
  const flat = zeros([model.parameters().reduce((n, p) => n + p.numel, 0)]);
  const commMs = ddp ? await timed(steps, () => allReduce(flat, { op: ReduceOp.AVG })) : 0;
  report({ widths: widths.join('-'), world, stepMs, localMs, commMs });
}
await destroyProcessGroup();
process.exit(0);
