import { parentPort, workerData } from 'node:worker_threads';
import { Router } from 'zeromq';
import type { Tensor } from '@wiregrad/autograd';
import { initRpc, register, shutdown } from '@wiregrad/rpc';
import '@wiregrad/dist-autograd';

const { initMethod, rawAddress } = workerData as { initMethod: string; rawAddress: string };

// raw zeromq echo: what a hand-written ROUTER server does
const router = new Router({ linger: 0 });
await router.bind(rawAddress);
const rawLoop = (async () => {
  try {
    for await (const frames of router) await router.send(frames);
  } catch {
    // closed
  }
})();

register('echo', (x: unknown) => x);
register('affine', (x: Tensor, w: Tensor) => x.mul(w).add(1));
await initRpc('callee', { rank: 1, worldSize: 2, backendOptions: { initMethod, rpcTimeout: 60 } });
parentPort!.postMessage('ready');
await shutdown({ timeout: 600 });
router.close();
await rawLoop;
