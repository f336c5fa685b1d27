import { runWorkers as run, type WorkerSpec } from '../../../rpc/src/__tests__/harness.js';

/** Runs `scenarios/<name>.ts` of this package on worker threads (see @wiregrad/rpc's test harness). */
export function runWorkers(spec: Omit<WorkerSpec, 'scenario'> & { scenario: string }): Promise<unknown[]> {
  return run({ ...spec, scenario: new URL(`./scenarios/${spec.scenario}.ts`, import.meta.url) });
}
