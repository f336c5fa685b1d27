import { type ChildProcess, spawn } from 'node:child_process';
import { Future, initRpc, register, rpcAsync, rpcSync, shutdown } from '@wiregrad/rpc';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { errorOf } from '@wiregrad/test-helpers';

const HEARTBEAT_MS = 200;
const released = new Future<void>();
register('ping', () => 'pong');
register('release', () => released.setResult());

/** `bootstrap`: fixtures/processBootstrap.mjs, from the spec (this scenario runs bundled elsewhere: Note [Bundled fixtures]). */
function startPeerProcess(bootstrap: string, initMethod: string, rank: number, worldSize: number): ChildProcess {
  return spawn(
    process.execPath,
    [
      '--conditions=source',
      bootstrap,
      './peerProcess.ts',
      initMethod,
      String(rank),
      String(worldSize),
      String(HEARTBEAT_MS),
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

/**
 * Rank 2 is a process of its own; rank 0 stops it with SIGSTOP (a hung peer: its kernel keeps
 * the TCP connections, only ZeroMQ heartbeats can tell), then kills it with SIGKILL.
 */
export async function run({ rank, worldSize, initMethod, extra }: ScenarioContext) {
  if (rank === 1) {
    await initRpc('worker1', {
      rank,
      worldSize,
      backendOptions: { initMethod, rpcTimeout: 25, heartbeatMs: HEARTBEAT_MS },
    });
    await released.wait();
    await shutdown({ graceful: false });
    return 'released';
  }
  const child = startPeerProcess(extra as string, initMethod, 2, worldSize);
  const exited = new Promise((r) => child.once('exit', r));
  // a stopped child never reaches its own watchdog: it dies with this thread, whatever happens
  process.once('exit', () => child.kill('SIGKILL'));
  try {
    await initRpc('worker0', {
      rank,
      worldSize,
      backendOptions: { initMethod, rpcTimeout: 25, heartbeatMs: HEARTBEAT_MS },
    });
    const before = await rpcSync(2, 'ping');
    const pending = rpcAsync(2, 'hang', [], { timeout: 0 });
    child.kill('SIGSTOP');
    const t0 = Date.now();
    const pendingError = await errorOf(pending);
    const detectedMs = Date.now() - t0;
    const newCall = await errorOf(rpcSync(2, 'ping'));
    const others = await rpcSync(1, 'ping');
    child.kill('SIGKILL');
    await exited;
    const afterKill = await errorOf(rpcSync(2, 'ping'));
    // rank 1 closes its sockets as soon as it is released, maybe before its answer leaves
    rpcAsync(1, 'release')
      .wait()
      .catch(() => {});
    await shutdown({ graceful: false });
    return { before, pendingError, detectedMs, newCall, others, afterKill };
  } finally {
    child.kill('SIGKILL');
  }
}
