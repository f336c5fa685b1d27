import {
  initRpc,
  register,
  rpcSync,
  rpcState,
  shutdown,
  MessageType,
  type OutgoingMessage,
} from '@wiregrad/rpc/internal';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { type KeyPair, rawPeerAnswered } from './rawPeer.js';

let served = 0;
register('secret', () => ++served);
register('servedCount', () => served);

/** A raw peer calling 'secret' at `address` with `options`; true when anything answered. */
function intrude(address: string, options: Parameters<typeof rawPeerAnswered>[2]): Promise<boolean> {
  const call: OutgoingMessage = { type: MessageType.PYTHON_CALL, payload: { fn: 'secret', args: [] } };
  return rawPeerAnswered(address, call, { routingId: 'worker0', receiveTimeout: 1500, ...options });
}

export async function run({ rank, worldSize, initMethod, extra }: ScenarioContext) {
  const { keys, intruder } = extra as { keys: KeyPair[]; intruder: KeyPair };
  await initRpc(`worker${rank}`, {
    rank,
    worldSize,
    backendOptions: { initMethod, rpcTimeout: 5, curve: keys[rank]! },
  });
  const legit = await rpcSync((rank + 1) % worldSize, 'secret');
  const out: Record<string, unknown> = { legit };
  if (rank === 0) {
    const address = rpcState().agent.peerAddresses.get(1)!;
    // knows worker1's public key but is not a member: the ZAP handler refuses its key
    out.foreignKey = await intrude(address, {
      curveServerKey: keys[1]!.publicKey,
      curvePublicKey: intruder.publicKey,
      curveSecretKey: intruder.secretKey,
    });
    // no CURVE at all: the handshake fails
    out.plaintext = await intrude(address, {});
    // a member's public key without its secret key: the handshake fails
    out.stolenPublicKey = await intrude(address, {
      curveServerKey: keys[1]!.publicKey,
      curvePublicKey: keys[0]!.publicKey,
      curveSecretKey: intruder.secretKey,
    });
    out.servedOnWorker1 = await rpcSync(1, 'servedCount');
  }
  await shutdown();
  return out;
}
