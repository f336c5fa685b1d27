import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tensor, type Tensor } from '@wiregrad/tensor';
import { initRpc, register, rpcSync, shutdown } from '@wiregrad/rpc';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { sleep } from '@wiregrad/test-helpers';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The memory of the tensor frame the callee received with its last request. */
let served: WeakRef<ArrayBufferLike> | null = null;
register('echo', (x: Tensor) => {
  served = new WeakRef(x.storage.data.buffer);
  return x;
});

/**
 * One 1 MiB echo; the answer's memory (a view of the received frame) as a WeakRef. A function of
 * its own, so that no register of the scenario's own async function still holds the answer.
 */
async function echoed(): Promise<WeakRef<ArrayBufferLike>> {
  const answer = await rpcSync<Tensor>(1, 'echo', [tensor(new Float32Array(256 * 1024).fill(1))]);
  return new WeakRef(answer.storage.data.buffer);
}

/** Whether `ref`'s buffer is collected within a few forced GCs (with turns between them for finalizers). */
async function collected(ref: () => WeakRef<ArrayBufferLike> | null): Promise<boolean> {
  for (let round = 0; round < 20; round++) {
    await sleep(25);
    gc();
    const r = ref();
    if (r && r.deref() === undefined) return true;
  }
  return false;
}

/**
 * A received message's frames are garbage once it is served (callee) or answered (caller),
 * without waiting for the next message on the same socket: heartbeats are one a minute here,
 * and nothing else is sent until both ranks looked.
 */
export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  await initRpc(`worker${rank}`, {
    rank,
    worldSize,
    backendOptions: { initMethod, rpcTimeout: 20, heartbeatMs: 60_000 },
  });
  let out: Record<string, unknown>;
  if (rank === 0) {
    const answer = await echoed();
    out = { answerCollected: await collected(() => answer) };
  } else {
    out = { requestCollected: await collected(() => served) };
  }
  await shutdown();
  return out;
}
