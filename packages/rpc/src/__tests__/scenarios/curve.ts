import { Dealer } from 'zeromq';
import { encodeMessage, initRpc, register, rpcSync, rpcState, shutdown, MessageType } from '@wiregrad/rpc';
import type { ScenarioContext } from '../worker.js';

register('secret', () => 42);

export async function run({ rank, worldSize, initMethod, extra }: ScenarioContext) {
  const { keys, intruder } = extra as { keys: { publicKey: string; secretKey: string }[]; intruder: { publicKey: string; secretKey: string } };
  await initRpc(`worker${rank}`, { rank, worldSize, backendOptions: { initMethod, rpcTimeout: 5, curve: keys[rank]! } });
  const legit = await rpcSync((rank + 1) % worldSize, 'secret');
  let intruderGotAnswer = false;
  if (rank === 0) {
    // knows the server's public key but is not a member: the ZAP handler refuses its key
    const raw = new Dealer({ routingId: 'intruder', linger: 0, receiveTimeout: 1500, curveServerKey: keys[1]!.publicKey, curvePublicKey: intruder.publicKey, curveSecretKey: intruder.secretKey });
    raw.connect(rpcState().agent.peerAddresses.get(1)!);
    await raw.send(encodeMessage({ type: MessageType.PYTHON_CALL, id: 1, payload: { fn: 'secret', args: [] } }, { deviceMap: {}, peer: 1 }));
    try {
      await raw.receive();
      intruderGotAnswer = true;
    } catch {
      intruderGotAnswer = false;
    } finally {
      raw.close();
    }
  }
  await shutdown();
  return { legit, intruderGotAnswer };
}

