import { parentPort } from 'node:worker_threads';

/** Tells the spec that the teardown ran (after the scenario's result). */
export async function teardown(): Promise<void> {
  parentPort!.postMessage({ ok: true, value: 'torn down' });
}
