import { arange, tensor, toTypedArray, type Tensor } from '@wiregrad/tensor';
import { getRpcStats, initRpc, register, rpcAsync, rpcSync, shutdown } from '@wiregrad/rpc';
import { notify } from '@wiregrad/rpc/internal';
import { TcpProxy, type ScenarioContext } from '@wiregrad/test-helpers';

/** The parameter server's state (rank 1): an update applied twice would change it. */
let params: Tensor = tensor(new Float32Array(64).fill(1));
let updates = 0;
let increments = 0;
register('update', (grad: Tensor) => {
  updates++;
  params = params.mul(0.9).sub(grad);
  return params;
});
/** the steps whose one-way note arrived (Note [One-way messages]), in arrival order */
const notes: number[] = [];
register('increment', () => ++increments);
register('note', (step: number, grad: Tensor) => void notes.push(grad.numel === 64 ? step : -1));
register('executions', () => ({ updates, increments, notes }));

/** The gradient of step `s`, the same on every run. */
const gradient = (s: number): Tensor => arange(64).mul(0.001 * ((s % 7) + 1));

export interface ExactlyOnceExtra {
  /** the proxy in front of each rank's listen port: [proxy, listen] */
  ports: [number, number][];
  resetChance: number;
  /** chunks of each connection that pass before the reset draws begin (TcpProxy's passFirst) */
  passFirst: number;
  /** cut every connection for this long, in the middle of the run (0: none) */
  partitionMs: number;
  steps: number;
  heartbeatMs: number;
  deadAfterHeartbeats: number;
}

/**
 * The spec of Note [Exactly-once calls]: rank 0 trains rank 1's parameters through a proxy that
 * resets connections (and optionally cuts them for a while); every update must be applied
 * once, in order, so the result equals the same updates applied locally, bit for bit. Each step
 * also sends a one-way note (half of them confirmed at once): each must run exactly once.
 */
export async function run({ rank, worldSize, initMethod, extra }: ScenarioContext) {
  const x = extra as ExactlyOnceExtra;
  const [proxyPort, listenPort] = x.ports[rank]!;
  const proxies =
    rank === 0
      ? x.ports.map(
          ([port, target], r) =>
            new TcpProxy({
              target: { host: '127.0.0.1', port: target },
              listen: { port },
              resetChance: x.resetChance,
              passFirst: x.passFirst,
              seed: 17 + r,
            }),
        )
      : [];
  await Promise.all(proxies.map((p) => p.start()));
  await initRpc(`worker${rank}`, {
    rank,
    worldSize,
    backendOptions: {
      initMethod,
      rpcTimeout: 60,
      heartbeatMs: x.heartbeatMs,
      deadAfterHeartbeats: x.deadAfterHeartbeats,
      listenAddress: `tcp://127.0.0.1:${listenPort}`,
      advertisedAddress: `tcp://127.0.0.1:${proxyPort}`,
    },
  });
  if (rank !== 0) {
    await rpcSync(0, 'increment'); // traffic this way too: rank 1 calls through rank 0's proxy
    // then the harness's teardown shuts down abruptly
    return new Promise<unknown>((resolve) => register('finish', async () => void setTimeout(resolve, 10)));
  }
  let expected: Tensor = tensor(new Float32Array(64).fill(1));
  let last: Tensor | null = null;
  const noted: Promise<void>[] = [];
  for (let s = 0; s < x.steps; s++) {
    noted.push(notify(1, 'note', [s, gradient(s)], { confirm: s % 2 === 0 }));
    if (x.partitionMs > 0 && s === Math.floor(x.steps / 2))
      void Promise.all(proxies.map((p) => p.partition(x.partitionMs)));
    expected = expected.mul(0.9).sub(gradient(s));
    last = await rpcSync<Tensor>(1, 'update', [gradient(s)]);
    // a burst of concurrent calls every few steps: answers out of order, ids interleaved
    if (s % 10 === 0) await Promise.all(Array.from({ length: 8 }, () => rpcAsync(1, 'increment')));
  }
  await Promise.all(noted); // every note's receipt came back
  const executions = await rpcSync<{ updates: number; increments: number; notes: number[] }>(1, 'executions');
  const resets = proxies.reduce((n, p) => n + p.stats.reset, 0);
  const { resent } = getRpcStats();
  for (const p of proxies) p.setResetChance(0);
  await rpcSync(1, 'finish');
  // rank 1 has answered everything: both leave abruptly. A graceful shutdown would wait out the
  // dead-peer window (30 s at 20 %) for rank 1, which leaves abruptly, and graceful on both sides
  // once left rank 1 waiting for barrier messages through the proxies this rank closes next
  await shutdown({ graceful: false });
  await Promise.all(proxies.map((p) => p.close()));
  return {
    bitIdentical: Buffer.from(toTypedArray(last!).buffer).equals(Buffer.from(toTypedArray(expected).buffer)),
    updates: executions.updates,
    increments: executions.increments,
    notes: executions.notes,
    resets,
    resent,
  };
}
