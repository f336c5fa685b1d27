// @wiregrad/rpc vs a raw ZeroMQ DEALER/ROUTER echo, both against a callee thread (issue: rpc).
import { Worker } from 'node:worker_threads';
import { Dealer } from 'zeromq';
import { rand, tensor, type Tensor } from '@wiregrad/autograd';
import { backward, context, getGradients } from '@wiregrad/dist-autograd';
import { initRpc, rpcAsync, rpcSync, shutdown } from '@wiregrad/rpc';
import { freePort } from '../packages/rpc/src/__tests__/harness.js';
import { compare, printRows, type Row } from './report.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function roundTrips(n: number, call: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Milliseconds per call with `inFlight` calls outstanding for `total` calls. */
async function inFlightMs(total: number, inFlight: number, call: () => Promise<unknown>): Promise<number> {
  let started = 0;
  const t0 = performance.now();
  const lane = async () => {
    while (started < total) {
      started++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return (performance.now() - t0) / total;
}

/**
 * `inFlightMs` after `total / 4` untimed calls made the same way: like the round trips' 200
 * warm-up calls, these let V8 compile the concurrent path (batches, queues) before timing;
 * raw zeromq and rpc get the same treatment.
 */
async function throughput(total: number, inFlight: number, call: () => Promise<unknown>): Promise<number> {
  await inFlightMs(total / 4, inFlight, call);
  return inFlightMs(total, inFlight, call);
}

export async function run(): Promise<Row[]> {
  const initMethod = `tcp://127.0.0.1:${await freePort()}`;
  const rawAddress = `tcp://127.0.0.1:${await freePort()}`;
  const callee = new Worker(new URL('./rpcWorker.mjs', import.meta.url), { execArgv: ['--conditions=source'], workerData: { initMethod, rawAddress } });
  await initRpc('caller', { rank: 0, worldSize: 2, backendOptions: { initMethod, rpcTimeout: 60 } });
  await new Promise((r) => callee.once('message', r));

  const raw = new Dealer({ linger: 0 });
  raw.connect(rawAddress);
  // one raw request at a time per DEALER frame set; in-flight raw calls are matched FIFO
  const waiting: (() => void)[] = [];
  void (async () => {
    try {
      for await (const _ of raw) waiting.shift()?.();
    } catch {
      // closed
    }
  })();
  let sendChain = Promise.resolve();
  const rawCall = (frames: (Uint8Array | string)[]) =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      sendChain = sendChain.then(() => raw.send(frames));
    });

  const rows: Row[] = [];
  for (let i = 0; i < 200; i++) await rawCall(['x']);
  for (let i = 0; i < 200; i++) await rpcSync(1, 'echo', [1]);
  const rawRt = await roundTrips(2000, () => rawCall(['x']));
  const oursRt = await roundTrips(2000, () => rpcSync(1, 'echo', [1]));
  rows.push(compare('tiny call round trip (median)', ['rpcSync', oursRt], ['raw zeromq', rawRt], 0.5));

  const rawTp = await throughput(20000, 64, () => rawCall(['x']));
  const oursTp = await throughput(20000, 64, () => rpcAsync(1, 'echo', [1]).wait());
  rows.push(compare('64 calls in flight (ms per call)', ['rpcAsync', oursTp], ['raw zeromq', rawTp], 0.5));
  console.log(`  64 in flight: ours ${(1000 / oursTp).toFixed(0)} calls/s, raw ${(1000 / rawTp).toFixed(0)} calls/s (ratio ${(rawTp / oursTp).toFixed(2)}, target >= 0.5)`);

  const big = new Float32Array(4 * 1024 * 1024);
  const t = tensor(big);
  const bytes = new Uint8Array(big.buffer);
  const rawBig = await roundTrips(10, () => rawCall([bytes]));
  const oursBig = await roundTrips(10, () => rpcSync(1, 'echo', [t]));
  rows.push(compare('16 MiB f32 tensor echo (median)', ['rpcSync', oursBig], ['raw zeromq', rawBig], 0.5));
  const bytesPerSecond = (ms: number) => ((2 * big.byteLength) / ms) * 1000;
  console.log(
    `  16 MiB echo (both ways): ours ${(bytesPerSecond(oursBig) / 1e6).toFixed(0)} MB/s, raw ${(bytesPerSecond(rawBig) / 1e6).toFixed(0)} MB/s (ratio ${(rawBig / oursBig).toFixed(2)}, target >= 0.5)`,
  );
  console.log(`  round trip: ours ${(oursRt * 1000).toFixed(0)} us, raw ${(rawRt * 1000).toFixed(0)} us (ours/raw ${(oursRt / rawRt).toFixed(2)}, target <= 2)`);

  // one distributed round: forward through one hop, distributed backward, getGradients
  const x = rand([16], { requiresGrad: true });
  const w = rand([16]);
  const round = () =>
    context(async (id) => {
      const y = await rpcSync<Tensor>(1, 'affine', [x, w]);
      await backward(id, [y.sum()]);
      return getGradients(id).get(x);
    });
  for (let i = 0; i < 50; i++) await round();
  const rounds = 500;
  const tr = performance.now();
  for (let i = 0; i < rounds; i++) await round();
  const roundMs = (performance.now() - tr) / rounds;
  console.log(`\n## dist-autograd\n  ${(1000 / roundMs).toFixed(0)} distributed rounds/s (${roundMs.toFixed(3)} ms each; PyTorch TensorPipe ~960/s on a comparable 2-core machine)`);
  console.log(`  raw zeromq round trip ${rawRt.toFixed(3)} ms, rpcSync round trip ${oursRt.toFixed(3)} ms in the same run: a round costs ${(roundMs / oursRt).toFixed(1)} rpcSync round trips`);

  raw.close();
  await shutdown({ timeout: 30 });
  await new Promise((r) => callee.once('exit', r));
  printRows('rpc (ZeroMQ, two threads of one process)', rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
