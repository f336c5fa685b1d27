import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { Tensor } from '@wiregrad/tensor';
import { MessageType, getRpcStats, initRpc, register, rpcState, rpcSync, shutdown } from '@wiregrad/rpc/internal';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { rawPeerAnswered } from './rawPeer.js';

register('echo', (t: Tensor) => t);
register('refused', () => getRpcStats().refused);
register('localEndpoint', () => rpcState().agent.localEndpoint?.address ?? null);
let attacked = () => {};
const attacksOver = new Promise<void>((resolve) => (attacked = resolve));
register('attacksOver', () => attacked());

/** A process of this user at worker1's Unix socket, as DEALER identity `as`, unsigned: true if anything came back. */
const intrude = (address: string, as: string) =>
  rawPeerAnswered(
    address,
    { type: MessageType.PYTHON_CALL, payload: { fn: 'echo', args: [1] } },
    { routingId: as, receiveTimeout: 1000 },
  );

/**
 * The spec of Note [Same-machine peers over Unix sockets]: workers 0 and 1 meet over their Unix
 * sockets, worker2 (ipc: false) over TCP; a tensor crosses each route; a process at worker1's
 * socket that does not sign as a member gets nothing.
 */
export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  await initRpc(`worker${rank}`, {
    rank,
    worldSize,
    backendOptions: { initMethod, rpcTimeout: 10, secret: 'spec secret', ...(rank === 2 ? { ipc: false } : {}) },
  });
  const agent = rpcState().agent;
  const out: Record<string, unknown> = {
    routes: Object.fromEntries([...agent.peerRoutes].map(([id, route]) => [id, route.split(':')[0]])),
    offers: agent.localEndpoint !== null,
  };
  const values = Float32Array.from({ length: 1 << 18 }, (_, i) => i % 1000);
  const back = await rpcSync<Tensor>((rank + 1) % worldSize, 'echo', [
    Tensor.fromTypedArray(values, [values.length], 'float32'),
  ]);
  out.echoed = back!.toTypedArray().every((v, i) => v === values[i]);
  if (rank === 0) {
    const socket = (await rpcSync<string>(1, 'localEndpoint'))!;
    out.socketDirMode = (statSync(dirname(socket.slice('ipc://'.length))).mode & 0o777).toString(8);
    out.answered = { stranger: await intrude(socket, 'intruder'), asMember: await intrude(socket, 'worker2') };
    out.refusedOnWorker1 = await rpcSync(1, 'refused');
    await Promise.all([rpcSync(1, 'attacksOver'), rpcSync(2, 'attacksOver')]);
  } else await attacksOver;
  await shutdown();
  return out;
}
