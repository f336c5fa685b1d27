import { type RRef, initRpc, register, remote, rpcSync, shutdown } from '@wiregrad/rpc';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { errorOf, sleep } from '@wiregrad/test-helpers';

class Counter {
  constructor(public value: number) {}
  increment(by: number) {
    return (this.value += by);
  }
}

register('slowValue', (v: number, ms: number) => sleep(ms).then(() => v));
register('value', (v: number) => v);
register('slowCounter', (start: number) => sleep(30).then(() => new Counter(start)));
register('failSlowly', () => sleep(30).then(() => Promise.reject(new TypeError('creation failed'))));
/** reads the value with localValue(), which never waits: the owner must have waited before calling */
register('readLocal', (r: RRef<number>) => r.localValue());
register('readNested', (o: { a: RRef<number>[]; b: { c: RRef<number> } }) => o.a[0]!.localValue() + o.b.c.localValue());

export async function run({ rank, worldSize, initMethod, extra }: ScenarioContext) {
  const { batchMessages } = extra as { batchMessages: boolean };
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, batchMessages } });
  if (rank !== 0) {
    await shutdown();
    return 'served';
  }
  const asArgument = await rpcSync(1, 'readLocal', [remote(1, 'slowValue', [7, 50])]);
  const p = remote<number>(1, 'slowValue', [1, 40]);
  const q = remote<number>(1, 'slowValue', [2, 20]);
  const nested = await rpcSync(1, 'readNested', [{ a: [p], b: { c: q } }]);
  const viaProxy = await remote(1, 'slowCounter', [5]).rpcSync().increment!(1);
  const creationError = await errorOf(rpcSync(1, 'readLocal', [remote(1, 'failSlowly')]));
  const selfOwned = remote<number>(0, 'slowValue', [3, 30]);
  const localTooEarly = await errorOf(() => selfOwned.localValue());
  const selfAsArgument = await rpcSync(0, 'readLocal', [selfOwned]);
  let wrong = 0;
  for (let i = 0; i < 1000; i++) {
    const r = remote<number>(1, 'value', [i]);
    if ((await rpcSync(1, 'readLocal', [r])) !== i) wrong++;
    void r.release();
  }
  await Promise.all([p.release(), q.release(), selfOwned.release()]);
  await shutdown();
  return { asArgument, nested, viaProxy, creationError, localTooEarly, selfAsArgument, wrong };
}
