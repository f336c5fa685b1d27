import { createServer } from 'node:net';
import { Worker } from 'node:worker_threads';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface WorkerSpec {
  /** a scenario name under ./scenarios, or the URL of a scenario module */
  scenario: string | URL;
  worldSize: number;
  /** ranks to start (default: all) */
  ranks?: number[];
  extra?: unknown;
  timeoutMs?: number;
  initMethod?: string;
}

/**
 * Runs a scenario module (`scenarios/<name>.ts` or a URL) on `worldSize` worker_threads, each its own RPC worker on a
 * fresh port, and returns what each rank's `run()` returned. Workers shut down (closing every
 * socket) before they exit, on success, on error and on their own watchdog timeout.
 */
export async function runWorkers(spec: WorkerSpec): Promise<unknown[]> {
  const initMethod = spec.initMethod ?? `tcp://127.0.0.1:${await freePort()}`;
  const ranks = spec.ranks ?? Array.from({ length: spec.worldSize }, (_, i) => i);
  const runs = ranks.map(
    (rank) =>
      new Promise<unknown>((resolve, reject) => {
        const w = new Worker(new URL('./bootstrap.mjs', import.meta.url), {
          execArgv: ['--conditions=source'],
          workerData: { scenario: String(typeof spec.scenario === 'string' ? new URL(`./scenarios/${spec.scenario}.ts`, import.meta.url) : spec.scenario), rank, worldSize: spec.worldSize, initMethod, extra: spec.extra, timeoutMs: spec.timeoutMs ?? 20000 },
        });
        let result: { ok: boolean; value?: unknown; error?: string } | undefined;
        w.on('message', (m) => (result = m));
        w.on('error', reject);
        w.on('exit', () => {
          if (!result) reject(new Error(`rank ${rank} exited without a result`));
          else if (result.ok) resolve(result.value);
          else reject(new Error(`rank ${rank}: ${result.error}`));
        });
      }),
  );
  return Promise.all(runs);
}
