import { manualSeed, randn, tensor, zeros } from '@wiregrad/autograd';
import { Linear, ReLU, Sequential } from '@wiregrad/nn';
import { DistributedDataParallel, allReduce, barrier, initProcessGroup } from '@wiregrad/distributed';
import { errorOf } from '@wiregrad/test-helpers';

/**
 * The last rank starts a ring all-reduce with the others and, in the middle of it, is SIGKILLed
 * (dies) or SIGSTOPped (hangs: its sockets stay open, it answers nothing; extra.signal); the
 * others' all-reduce must fail with a coded error within the heartbeat window. With extra.during
 * 'ddpBackward' it dies in the middle of a DDP backward pass instead (once its first gradient
 * bucket launched; extra.gradientAsBucketView: with gradients as bucket views), and the others'
 * backwardAsync() must fail the same way.
 */
export async function run({ rank, worldSize, extra }: { rank: number; worldSize: number; extra: unknown }) {
  const {
    signal = 'SIGKILL',
    during = 'allReduce',
    gradientAsBucketView = false,
  } = (extra ?? {}) as { signal?: NodeJS.Signals; during?: string; gradientAsBucketView?: boolean };
  await initProcessGroup();
  await barrier();
  if (during === 'ddpBackward') return ddpBackward(rank === worldSize - 1, signal, gradientAsBucketView);
  const big = tensor(
    Float32Array.from({ length: 1 << 21 }, (_, i) => i % 7),
    { dtype: 'float32' },
  );
  const t0 = performance.now();
  if (rank === worldSize - 1) {
    void allReduce(big);
    setTimeout(() => process.kill(process.pid, signal), 5);
    await new Promise(() => {});
  }
  const error = await errorOf(allReduce(big));
  const failedAfterMs = performance.now() - t0;
  const later = await errorOf(allReduce(zeros([1])));
  return { error, failedAfterMs, later };
}

async function ddpBackward(dies: boolean, signal: NodeJS.Signals, gradientAsBucketView: boolean) {
  manualSeed(0);
  const model = new Sequential(new Linear(64, 512), new ReLU(), new Linear(512, 512), new ReLU(), new Linear(512, 4));
  const ddp = new DistributedDataParallel(model, { bucketCapMb: 0.5, gradientAsBucketView });
  await ddp.ready;
  // the last layer's weight is ready first: its bucket launches, then this rank dies mid-backward
  if (dies)
    model
      .parameters()
      .at(-2)!
      .registerPostAccumulateGradHook(() => process.kill(process.pid, signal));
  const t0 = performance.now();
  const error = await errorOf(
    ddp
      .call(randn([32, 64]))
      .pow(2)
      .mean()
      .backwardAsync(),
  );
  const failedAfterMs = performance.now() - t0;
  const later = await errorOf(allReduce(zeros([1])));
  return { error, failedAfterMs, later };
}
