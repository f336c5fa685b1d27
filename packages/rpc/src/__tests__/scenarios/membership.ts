import {
  type WorkerInfo,
  getWorkerInfo,
  getWorkerInfos,
  initRpc,
  onWorkerJoin,
  onWorkerLeave,
  register,
  rpcSync,
  shutdown,
} from '@wiregrad/rpc';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { errorOf, sleep } from '@wiregrad/test-helpers';

register('ping', () => 'pong');
register('whoami', () => getWorkerInfo().name);
const backendOptions = (initMethod: string) => ({ initMethod, heartbeatMs: 200, rpcTimeout: 20 });
const names = () => getWorkerInfos().map((w) => `${w.name}:${w.id}`);

/**
 * worker0 and worker1 form a group of worldSize 2. worker2 joins it and leaves with shutdown();
 * worker3 joins, dies without a word (abrupt shutdown: no LEAVE_REQ), and joins again under the
 * same name; then leaves. The static members watch it all through onWorkerJoin/onWorkerLeave.
 */
export async function run({ rank, initMethod, extra }: ScenarioContext) {
  // worker2 tells worker3 (through shared memory) when it has left, so the order of events is fixed on a loaded machine
  const worker2Left = extra as Int32Array;
  if (rank === 2) {
    await sleep(300);
    await initRpc('worker2', { backendOptions: backendOptions(initMethod) });
    const seen = names();
    const answers = [await rpcSync('worker0', 'whoami'), await rpcSync('worker1', 'whoami')];
    const id = getWorkerInfo().id;
    await shutdown();
    Atomics.store(worker2Left, 0, 1);
    return { id, seen, answers };
  }
  if (rank === 3) {
    while (Atomics.load(worker2Left, 0) === 0) await sleep(20);
    await initRpc('worker3', { backendOptions: backendOptions(initMethod) });
    const firstId = getWorkerInfo().id;
    await shutdown({ graceful: false }); // dies: the others only notice the silence
    // the name is free again once the store's worker noticed the death (600 ms of silence here)
    for (let tries = 0; ; tries++) {
      const refused = await errorOf(initRpc('worker3', { backendOptions: backendOptions(initMethod) }));
      if (refused === null) break;
      if (!refused.message.includes('is not unique') || tries > 100) throw new Error(refused.message);
      await sleep(100);
    }
    const secondId = getWorkerInfo().id;
    const answer = await rpcSync('worker0', 'whoami');
    await sleep(300);
    await shutdown();
    return { firstId, secondId, answer };
  }
  const joins: string[] = [];
  const leaves: string[] = [];
  let leftAt = 0;
  let calledAfterLeave: unknown = null;
  let calledAfterDeath: unknown = null;
  const offJoin = onWorkerJoin((w: WorkerInfo) => joins.push(`${w.name}:${w.id}`));
  const offLeave = onWorkerLeave((w: WorkerInfo, reason) => {
    leaves.push(`${w.name}:${w.id}:${reason}`);
    if (w.name === 'worker2') leftAt = Date.now();
  });
  await initRpc(`worker${rank}`, { rank, worldSize: 2, backendOptions: backendOptions(initMethod) });
  for (let i = 0; i < 1000 && leaves.length < 3; i++) {
    await sleep(20);
    if (leaves.length === 1 && calledAfterLeave === null) calledAfterLeave = await errorOf(rpcSync('worker2', 'ping'));
    if (leaves.length === 2 && calledAfterDeath === null) calledAfterDeath = await errorOf(rpcSync(2 + 1, 'ping'));
  }
  const after = names();
  const t0 = Date.now();
  await shutdown();
  offJoin();
  offLeave();
  return { joins, leaves, after, calledAfterLeave, calledAfterDeath, shutdownMs: Date.now() - t0, leftAt: leftAt > 0 };
}
