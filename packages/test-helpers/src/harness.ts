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
  /** the URL of a scenario module: it exports `run(ctx: ScenarioContext)` */
  scenario: URL;
  /**
   * the URL of a module exporting `teardown(): Promise<void>`, which each thread awaits before
   * it exits, on success, on error and on its watchdog timeout (an RPC worker closes every
   * socket there: zeromq aborts the process when a thread exits with sockets open)
   */
  teardown?: URL;
  worldSize: number;
  /** ranks to start (default: all) */
  ranks?: number[];
  extra?: unknown;
  timeoutMs?: number;
  initMethod?: string;
}

/**
 * Runs a scenario module on `worldSize` worker_threads, each its own RPC worker on a fresh port,
 * and returns what each rank's `run()` returned. Each thread runs `spec.teardown` before it
 * exits, on success, on error and on its own watchdog timeout.
 */
export async function runWorkers(spec: WorkerSpec): Promise<unknown[]> {
  const initMethod = spec.initMethod ?? `tcp://127.0.0.1:${await freePort()}`;
  const ranks = spec.ranks ?? Array.from({ length: spec.worldSize }, (_, i) => i);
  const runs = ranks.map(
    (rank) =>
      new Promise<unknown>((resolve, reject) => {
        const w = new Worker(new URL('./bootstrap.mjs', import.meta.url), {
          execArgv: ['--conditions=source'],
          workerData: {
            scenario: String(spec.scenario),
            teardown: spec.teardown === undefined ? undefined : String(spec.teardown),
            rank,
            worldSize: spec.worldSize,
            initMethod,
            extra: spec.extra,
            timeoutMs: spec.timeoutMs ?? 20000,
          },
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
