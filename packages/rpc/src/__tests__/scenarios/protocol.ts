import { decode, encode } from '@msgpack/msgpack';
import { Dealer } from 'zeromq';
import type { RpcError } from '@wiregrad/rpc';
import { initRpc, register, rpcSync, rpcState, shutdown, MessageType } from '@wiregrad/rpc';
import type { ScenarioContext } from '../worker.js';

register('ping', () => 'pong');

/** A raw ZeroMQ peer speaking garbage at this worker's ROUTER; the worker must keep serving. */
export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  const errors: string[] = [];
  await initRpc(`worker${rank}`, {
    rank, worldSize,
    backendOptions: { initMethod, rpcTimeout: 5, maxMessageBytes: 64 * 1024, onProtocolError: (e: RpcError) => errors.push(e.message) },
  });
  const raw = new Dealer({ routingId: 'intruder', linger: 0, receiveTimeout: 1000 });
  raw.connect(rpcState().agent.address);
  const answers: unknown[] = [];
  const ask = async (frames: Uint8Array[]) => {
    await raw.send(frames);
    try {
      const [header, payload] = await raw.receive();
      answers.push({ header: decode(header!), payload: decode(payload!) });
    } catch {
      answers.push('no answer');
    }
  };
  try {
    await ask([new Uint8Array([0xc1, 0xff])]); // not MessagePack
    await ask([encode({ v: 1, type: 0x999, id: 7, n: 0 }), encode({})]); // unknown type
    await ask([encode({ v: 1, type: MessageType.PYTHON_CALL, id: 8, n: 2 }), encode({ fn: 'ping', args: [] })]); // missing tensor frames
    await ask([encode({ v: 1, type: MessageType.PYTHON_CALL, id: 9, n: 0 }), new Uint8Array([0x92, 0x01])]); // truncated payload
    await ask([encode({ v: 1, type: MessageType.PYTHON_CALL, id: 10, n: 0 }), new Uint8Array(128 * 1024)]); // oversized
  } finally {
    raw.close();
  }
  const stillServing = await rpcSync(rank, 'ping');
  await shutdown();
  return { answers, errors: errors.length, stillServing };
}
