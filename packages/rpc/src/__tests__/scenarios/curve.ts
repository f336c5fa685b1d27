import { Dealer } from 'zeromq';
import { encodeMessage, initRpc, register, rpcSync, rpcState, shutdown, MessageType } from '@wiregrad/rpc/internal';
import type { ScenarioContext } from '@wiregrad/test-helpers';

interface KeyPair {
  publicKey: string;
  secretKey: string;
}

let served = 0;
register('secret', () => ++served);
register('servedCount', () => served);

/** A raw peer calling 'secret' at `address` with `options`; true when anything answered. */
async function intrude(address: string, options: ConstructorParameters<typeof Dealer>[0]): Promise<boolean> {
  const raw = new Dealer({ routingId: 'worker0', linger: 0, receiveTimeout: 1500, ...options });
  raw.connect(address);
  try {
    await raw.send(
      encodeMessage(
        { type: MessageType.PYTHON_CALL, id: 1, payload: { fn: 'secret', args: [] } },
        { deviceMap: {}, peer: 1 },
      ),
    );
    await raw.receive();
    return true;
  } catch {
    return false;
  } finally {
    raw.close();
  }
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
