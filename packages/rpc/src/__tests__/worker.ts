import { parentPort, workerData } from 'node:worker_threads';
import { shutdown, maybeRpcState } from '@wiregrad/rpc';

const { scenario, rank, worldSize, initMethod, extra, timeoutMs } = workerData as {
  scenario: string; rank: number; worldSize: number; initMethod: string; extra: unknown; timeoutMs: number;
};

export interface ScenarioContext {
  rank: number;
  worldSize: number;
  initMethod: string;
  extra: unknown;
}

const watchdog = setTimeout(() => {
  parentPort!.postMessage({ ok: false, error: `watchdog: scenario ${scenario} did not finish in ${timeoutMs} ms` });
  void shutdown({ graceful: false }).finally(() => process.exit(1));
}, timeoutMs);

try {
  const mod = (await import(scenario)) as { run(ctx: ScenarioContext): Promise<unknown> };
  const value = await mod.run({ rank, worldSize, initMethod, extra });
  parentPort!.postMessage({ ok: true, value });
} catch (e) {
  parentPort!.postMessage({ ok: false, error: e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : String(e) });
} finally {
  // never exit with open sockets (zeromq aborts the process)
  if (maybeRpcState()) await shutdown({ graceful: false }).catch(() => {});
  clearTimeout(watchdog);
}
