import { maybeRpcState, shutdown } from '@wiregrad/rpc/internal';
import { runWorkers as run, type WorkerSpec } from '@wiregrad/test-helpers';

/**
 * Runs `scenarios/<name>.ts` of this package (or the scenario module at a URL) on worker threads,
 * each its own RPC worker (@wiregrad/test-helpers' runWorkers). Every thread ends with `teardown` below.
 */
export function runWorkers(
  spec: Omit<WorkerSpec, 'scenario' | 'teardown'> & { scenario: string | URL },
): Promise<unknown[]> {
  const scenario =
    typeof spec.scenario === 'string' ? new URL(`./scenarios/${spec.scenario}.ts`, import.meta.url) : spec.scenario;
  return run({ ...spec, scenario, teardown: new URL(import.meta.url) });
}

/** A scenario thread's last act (WorkerSpec.teardown): never exit with open sockets (zeromq aborts the process). */
export async function teardown(): Promise<void> {
  if (maybeRpcState()) await shutdown({ graceful: false });
}
