// A world of 8 worker processes (issue [2/6]): rendezvous time, all-to-all rpcAsync with 64 in
// flight per worker, and a distributed round through 3 hops; nothing may time out or leak.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@wiregrad/test-helpers';

const WORLD = 8;

interface Result {
  rank: number;
  rendezvousMs: number;
  callsPerSec: number;
  roundMs: number | null;
  debug: Record<string, number>[] | null;
}

export async function run(): Promise<void> {
  const initMethod = `tcp://127.0.0.1:${await freePort()}`;
  const script = fileURLToPath(new URL('./manyWorkers.ts', import.meta.url));
  const t0 = performance.now();
  const results = await Promise.all(
    Array.from(
      { length: WORLD },
      (_, rank) =>
        new Promise<Result>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            ['--conditions=source', '--import', 'tsx', script, String(rank), String(WORLD), initMethod],
            { stdio: ['ignore', 'pipe', 'inherit'] },
          );
          let out = '';
          child.stdout.on('data', (d) => (out += d));
          const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
          child.on('exit', (code, signal) => {
            clearTimeout(timer);
            if (code === 0) resolve(JSON.parse(out.trim().split('\n').pop()!) as Result);
            else reject(new Error(`worker ${rank} exited with ${signal ?? code}: ${out}`));
          });
        }),
    ),
  );
  const wall = (performance.now() - t0) / 1000;
  const rendezvous = results.map((r) => r.rendezvousMs);
  const aggregate = results.reduce((s, r) => s + r.callsPerSec, 0);
  const r0 = results.find((r) => r.rank === 0)!;
  const leaks = (r0.debug ?? []).filter((d) => Object.values(d).some((v) => v !== 0));
  console.log(`\n## ${WORLD} worker processes on this machine`);
  console.log(
    `  rendezvous (initRpc, process start excluded): ${Math.min(...rendezvous).toFixed(0)}-${Math.max(...rendezvous).toFixed(0)} ms`,
  );
  console.log(
    `  all-to-all rpcAsync, 64 in flight per worker: ${aggregate.toFixed(0)} calls/s in all (${(aggregate / WORLD).toFixed(0)} per worker)`,
  );
  console.log(
    `  distributed round through 3 hops (0 -> 1 -> 2 -> 3): ${r0.roundMs!.toFixed(2)} ms (${(1000 / r0.roundMs!).toFixed(0)} rounds/s)`,
  );
  console.log(
    `  debug counters after the run: ${leaks.length === 0 ? 'all zero on every worker' : `NOT zero: ${JSON.stringify(leaks)}`}; wall time ${wall.toFixed(1)} s`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
