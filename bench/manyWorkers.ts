// One of the 8 worker processes of manyWorkers.bench.ts. argv: rank, worldSize, initMethod
import { type Tensor, rand } from '@wiregrad/autograd';
import { getDebugInfo as autogradDebug, backward, context, getGradients } from '@wiregrad/dist-autograd';
import { getRRefDebugInfo, initRpc, register, rpcAsync, rpcSync, shutdown } from '@wiregrad/rpc';

const [rank, worldSize, initMethod] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]!];
register('echo', (x: unknown) => x);
register('debug', () => ({ ...autogradDebug(), ...getRRefDebugInfo() }));
// three hops: rank 0 -> 1 -> 2 -> 3, each adding its part of the computation
register('hop', (x: Tensor, left: number) => {
  const y = x.mul(2).add(1);
  return left === 0 ? y : rpcSync<Tensor>(((rank + 1) % worldSize) as number, 'hop', [y, left - 1]);
});
let go!: () => void;
const started = new Promise<void>((r) => (go = r));
register('go', () => go());

const t0 = performance.now();
await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 60 } });
const rendezvousMs = performance.now() - t0;
if (rank === 0) await Promise.all(Array.from({ length: worldSize }, (_, r) => rpcAsync(r, 'go').wait()));
await started;

// all-to-all: 64 calls in flight from every worker to the others, round robin
const total = 20_000;
let next = 0;
const lane = async () => {
  while (next < total) {
    const to = (rank + 1 + (next++ % (worldSize - 1))) % worldSize;
    await rpcAsync(to, 'echo', [next]).wait();
  }
};
const ta = performance.now();
await Promise.all(Array.from({ length: 64 }, lane));
const callsPerSec = total / ((performance.now() - ta) / 1000);

let roundMs: number | null = null;
let debug: unknown = null;
if (rank === 0) {
  const x = rand([16], { requiresGrad: true });
  const round = () =>
    context(async (id) => {
      const y = await rpcSync<Tensor>(1, 'hop', [x, 2]); // 0 -> 1 -> 2 -> 3
      await backward(id, [y.sum()]);
      return getGradients(id).get(x);
    });
  for (let i = 0; i < 20; i++) await round();
  const tr = performance.now();
  for (let i = 0; i < 200; i++) await round();
  roundMs = (performance.now() - tr) / 200;
  await new Promise((r) => setTimeout(r, 200)); // the last cleanups settle
  debug = await Promise.all(Array.from({ length: worldSize }, (_, r) => rpcSync(r, 'debug')));
}
await shutdown({ timeout: 60 });
process.stdout.write(`${JSON.stringify({ rank, rendezvousMs, callsPerSec, roundMs, debug })}\n`);
