// How long a survivor takes to notice a worker killed with SIGKILL (issue [1/6]): the time from
// the kill to onWorkerLeave, with the default heartbeat settings, median of 5 kills.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { initRpc, onWorkerLeave, rpcSync, shutdown } from '@wiregrad/rpc';
import { freePort } from '@wiregrad/test-helpers';

const HEARTBEAT_MS = 1000; // the default

export async function run(): Promise<void> {
  const bootstrap = fileURLToPath(
    new URL('../packages/rpc/src/__tests__/fixtures/processBootstrap.mjs', import.meta.url),
  );
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const initMethod = `tcp://127.0.0.1:${await freePort()}`;
    const peer = spawn(
      process.execPath,
      ['--conditions=source', bootstrap, './peerProcess.ts', initMethod, '1', '2', String(HEARTBEAT_MS)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await initRpc('worker0', { rank: 0, worldSize: 2, backendOptions: { initMethod } });
    await rpcSync(1, 'ping');
    let killedAt = 0;
    const noticed = new Promise<number>((resolve) => {
      const off = onWorkerLeave(() => {
        off();
        resolve(performance.now() - killedAt);
      });
    });
    killedAt = performance.now();
    peer.kill('SIGKILL');
    times.push(await noticed);
    await shutdown();
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `\n## liveness\n  a SIGKILLed worker is noticed in ${sorted.map((t) => (t / 1000).toFixed(2)).join(', ')} s (median ${(sorted[2]! / 1000).toFixed(2)} s; heartbeat ${HEARTBEAT_MS} ms, dead after 3 silent intervals)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
