import { encode } from '@msgpack/msgpack';
import { Dealer } from 'zeromq';
import { tensor } from '@wiregrad/tensor';
import type { RpcError } from '@wiregrad/rpc/internal';
import {
  decodeMessage,
  encodeMessage,
  initRpc,
  register,
  rpcSync,
  rpcState,
  shutdown,
  MessageType,
} from '@wiregrad/rpc/internal';
import { HEADER_BYTES, writeHeader } from '../../messages/message.js';
import { TEXT_MARKER, fromWire, toWire } from '../../messages/textFrames.js';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { errorOf } from '@wiregrad/test-helpers';

/** A message written by hand: Note [Message framing]'s header in front of `payload`. */
function handMade(type: number, id: number, payload: Uint8Array): Uint8Array {
  const head = new Uint8Array(HEADER_BYTES + payload.byteLength);
  writeHeader(head, type, id);
  head.set(payload, HEADER_BYTES);
  return head;
}

register('ping', () => 'pong');
register('bigAnswer', () => new Uint8Array(100 * 1024));

/** A raw ZeroMQ peer speaking garbage at this worker's ROUTER; the worker must keep serving. */
export async function run({ rank, worldSize, initMethod }: ScenarioContext) {
  const errors: string[] = [];
  await initRpc(`worker${rank}`, {
    rank,
    worldSize,
    backendOptions: {
      initMethod,
      rpcTimeout: 5,
      maxMessageBytes: 64 * 1024,
      // the decoder's defences, on an open worker; a secure one answers nobody unauthenticated (attacks.ts)
      insecure: true,
      onProtocolError: (e: RpcError) => errors.push(e.message),
    },
  });
  const raw = new Dealer({ routingId: 'intruder', linger: 0, receiveTimeout: 1000 });
  raw.connect(rpcState().agent.address);
  const answers: unknown[] = [];
  const ask = async (frames: (Uint8Array | string)[]) => {
    await raw.send(frames);
    try {
      const [first, ...rest] = await raw.receive();
      // answers over 128 bytes arrive as text (Note [Small frames travel as text])
      const reply = decodeMessage([fromWire(first!), ...rest], { deviceMap: {}, peer: 0 });
      answers.push({ header: { type: reply.type, id: reply.id }, payload: reply.payload });
    } catch {
      answers.push('no answer');
    }
  };
  try {
    await ask([new Uint8Array([0xc1, 0xff])]); // shorter than a header
    await ask([handMade(0x999, 7, encode({}))]); // unknown type
    const [head] = encodeMessage(
      { type: MessageType.PYTHON_CALL, id: 8, payload: { fn: 'ping', args: [tensor([1, 2])] } },
      { deviceMap: {}, peer: 0 },
    );
    await ask([head!]); // its tensor frame is missing
    await ask([handMade(MessageType.PYTHON_CALL, 9, new Uint8Array([0x92, 0x01]))]); // truncated payload
    await ask([handMade(MessageType.PYTHON_CALL, 10, new Uint8Array(128 * 1024))]); // oversized
    await ask([handMade(MessageType.SCRIPT_RET, 11, encode({ value: 1 }))]); // a response is not a request
    // text (Note [Small frames travel as text]): bytes that are not UTF-8 behind the marker, then a call sent as text
    await ask([new Uint8Array([TEXT_MARKER, 0xff, 0xfe, 0x80, 0xc3])]);
    const [call] = encodeMessage(
      { type: MessageType.PYTHON_CALL, id: 12, payload: { fn: 'ping', args: ['x'.repeat(300)] } },
      { deviceMap: {}, peer: 0 },
    );
    await ask([toWire(call!)]);
  } finally {
    raw.close();
  }
  // a legitimate worker never sends a frame above the receiver's limit: the call fails at once
  const tooBig = await errorOf(rpcSync(rank, 'ping', [new Uint8Array(100 * 1024)]));
  const answerTooBig = await errorOf(rpcSync(rank, 'bigAnswer'));
  const stillServing = await rpcSync(rank, 'ping');
  await shutdown();
  return { answers, errors: errors.length, stillServing, tooBig, answerTooBig };
}
