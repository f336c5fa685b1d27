import { parentPort, workerData } from 'node:worker_threads';
import type { ScenarioContext } from './scenario.js';

const { scenario, teardown, rank, worldSize, initMethod, extra, timeoutMs } = workerData as {
  scenario: string;
  teardown: string | undefined;
  rank: number;
  worldSize: number;
  initMethod: string;
  extra: unknown;
  timeoutMs: number;
};

const end =
  teardown === undefined ? async () => {} : ((await import(teardown)) as { teardown(): Promise<void> }).teardown;

const watchdog = setTimeout(() => {
  parentPort!.postMessage({ ok: false, error: `watchdog: scenario ${scenario} did not finish in ${timeoutMs} ms` });
  void end().finally(() => process.exit(1));
}, timeoutMs);

try {
  const mod = (await import(scenario)) as { run(ctx: ScenarioContext): Promise<unknown> };
  const value = await mod.run({ rank, worldSize, initMethod, extra });
  parentPort!.postMessage({ ok: true, value });
} catch (e) {
  parentPort!.postMessage({ ok: false, error: e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : String(e) });
} finally {
  // never exit with open sockets (zeromq aborts the process): the teardown closes them
  await end().catch(() => {});
  clearTimeout(watchdog);
}
