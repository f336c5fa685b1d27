import { tensor, zeros } from '@wiregrad/autograd';
import { allReduce, barrier, initProcessGroup } from '@wiregrad/distributed';
import { errorOf } from '@wiregrad/test-helpers';

/**
 * The last rank starts a ring all-reduce with the others and, in the middle of it, is SIGKILLed
 * (dies) or SIGSTOPped (hangs: its sockets stay open, it answers nothing; extra.signal); the
 * others' all-reduce must fail with a coded error within the heartbeat window.
 */
export async function run({ rank, worldSize, extra }: { rank: number; worldSize: number; extra: unknown }) {
  const { signal = 'SIGKILL' } = (extra ?? {}) as { signal?: NodeJS.Signals };
  await initProcessGroup();
  await barrier();
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
