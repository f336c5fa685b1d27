import { parentPort, workerData } from 'node:worker_threads';
import type { Tensor } from '@wiregrad/autograd';
import { initRpc, register, rpcSync, shutdown } from '@wiregrad/rpc';
import '@wiregrad/dist-autograd';
import { rawEcho } from './rawZeromq.js';

// a thread of the bench (workerData), or a process of its own (RPC_CALLEE)
const { initMethod, rawAddresses, rank, ipc } = (workerData ?? JSON.parse(process.env.RPC_CALLEE!)) as {
  initMethod: string;
  /** where the raw echo listens (none: no raw echo) */
  rawAddresses: string[];
  rank: number;
  /** backendOptions.ipc */
  ipc: boolean;
};

// raw zeromq echo on rank 1
const echo = await rawEcho(rawAddresses);

register('echo', (x: unknown) => x);
register('affine', (x: Tensor, w: Tensor) => x.mul(w).add(1));
// a multi-hop round: the UDF on callee (rank 1) calls callee2 (rank 2)
register('hop', (x: Tensor, w: Tensor) => rpcSync<Tensor>(2, 'affine', [x.mul(w), w]));
await initRpc(rank === 1 ? 'callee' : `callee${rank}`, {
  rank,
  worldSize: 3,
  backendOptions: { initMethod, rpcTimeout: 60, ipc },
});
if (parentPort) parentPort.postMessage('ready');
else process.stdout.write('ready\n');
await shutdown({ timeout: 600 });
await echo.close();
