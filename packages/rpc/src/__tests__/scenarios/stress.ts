import { tensor, type Tensor } from '@wiregrad/tensor';
import { initRpc, register, rpcAsync, shutdown, waitAll, getWorkerInfo } from '@wiregrad/rpc';
import type { ScenarioContext } from '@wiregrad/test-helpers';

register('tag', (i: number, t: Tensor) => [getWorkerInfo().name, i, t.mul(2).item()]);
let active = 0;
let peak = 0;
register('probe', async () => {
  active++;
  peak = Math.max(peak, active);
  await new Promise((r) => setTimeout(r, 20));
  active--;
  return peak;
});
register('busy', async (ms: number) => {
  await new Promise((r) => setTimeout(r, ms));
  return ms;
});

export async function run({ rank, worldSize, initMethod, extra }: ScenarioContext) {
  await initRpc(`worker${rank}`, {
    rank,
    worldSize,
    backendOptions: { initMethod, rpcTimeout: 30, numWorkerThreads: 4 },
  });
  if (extra === 'uneven') {
    // rank 0 keeps calling for a while after the others asked to shut down
    if (rank === 0) for (let i = 0; i < 10; i++) await rpcAsync(1, 'busy', [30]).wait();
    await shutdown({ timeout: 20 });
    return 'done';
  }
  const others = Array.from({ length: worldSize }, (_, w) => w).filter((w) => w !== rank);
  const calls = others.flatMap((to) =>
    Array.from({ length: 1000 }, (_, i) => rpcAsync<[string, number, number]>(to, 'tag', [i, tensor(i)])),
  );
  const results = await waitAll(calls);
  let wrong = 0;
  const seen = new Set<string>();
  results.forEach((r, k) => {
    const to = others[Math.floor(k / 1000)]!;
    const i = k % 1000;
    if (r[0] !== `worker${to}` || r[1] !== i || r[2] !== 2 * i) wrong++;
    seen.add(`${r[0]}:${r[1]}`);
  });
  // numWorkerThreads = 4 bounds the requests served at once, however many are sent
  const peaks = await waitAll(Array.from({ length: 24 }, () => rpcAsync<number>(others[0]!, 'probe')));
  await shutdown();
  return { total: results.length, wrong, unique: seen.size, peak: Math.max(...peaks) };
}
