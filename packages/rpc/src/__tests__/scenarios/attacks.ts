import { curveKeyPair } from 'zeromq';
import {
  getRpcStats,
  getWorkerInfos,
  initRpc,
  register,
  rpcState,
  rpcSync,
  shutdown,
  MessageType,
  type OutgoingMessage,
} from '@wiregrad/rpc/internal';
import type { ScenarioContext } from '@wiregrad/test-helpers';
import { pairKey } from '../../auth/keys.js';
import { requestRendezvous } from '../../rendezvous/store.js';
import { type KeyPair, rawPeerAnswered } from './rawPeer.js';

let served = 0;
register('secret', () => ++served);
register('served', () => served);
register('members', () => getWorkerInfos().map((w) => w.name));
register('publicKey', () => rpcState().agent.publicKey);
register('refused', () => getRpcStats().refused);
let attacked = () => {};
const attacksOver = new Promise<void>((resolve) => (attacked = resolve));
register('attacksOver', () => attacked());

export interface AttacksExtra {
  secret: string;
  /** rank 2's key pair, which the attacker has stolen */
  stolen: KeyPair;
}

/**
 * An attacker at `address` (worker1's ROUTER, CURVE server key `serverKey`) sends `msg` as the
 * DEALER identity `as`, with its own CURVE key pair, the head signed with `macKey` if given;
 * true if anything at all came back.
 */
function attack(
  address: string,
  serverKey: string,
  keys: KeyPair,
  as: string,
  msg: OutgoingMessage,
  macKey: Buffer | null,
): Promise<boolean> {
  const curve = { curveServerKey: serverKey, curvePublicKey: keys.publicKey, curveSecretKey: keys.secretKey };
  return rawPeerAnswered(address, msg, { routingId: as, receiveTimeout: 1000, ...curve }, macKey);
}

/**
 * The spec of Note [Authenticated membership]: rank 0 attacks rank 1 the ways the field trial did
 * (a stranger calling as a member, a forged JOIN_REQ, a forged LEAVE_REQ, a member's stolen key
 * pair used under another name); nothing is answered or served, and the members' calls and
 * graceful shutdown go on as before.
 */
export async function run({ rank, worldSize, initMethod, extra }: ScenarioContext) {
  const { secret, stolen } = extra as AttacksExtra;
  const t0 = performance.now();
  await initRpc(`worker${rank}`, {
    rank,
    worldSize,
    backendOptions: { initMethod, rpcTimeout: 10, secret, ...(rank === 2 ? { curve: stolen } : {}) },
  });
  const legit = await rpcSync((rank + 1) % worldSize, 'secret');
  const out: Record<string, unknown> = { legit };
  if (rank === 0) {
    const address = rpcState().agent.peerAddresses.get(1)!;
    const serverKey = (await rpcSync<string>(1, 'publicKey'))!;
    const stranger = curveKeyPair();
    const call: OutgoingMessage = { type: MessageType.PYTHON_CALL, payload: { fn: 'secret', args: [] } };
    const strangerKey = pairKey(stranger.secretKey, serverKey, Buffer.from('a guess'));
    out.answered = {
      // no secret: a name that is not a member's, then one that is (its connection refused while worker2 holds it)
      stranger: await attack(address, serverKey, stranger, 'intruder', call, strangerKey),
      asMember: await attack(address, serverKey, stranger, 'worker2', call, strangerKey),
      forgedJoin: await attack(
        address,
        serverKey,
        stranger,
        'evil',
        {
          type: MessageType.JOIN_REQ,
          payload: {
            name: 'evil',
            rank: 9,
            address: 'tcp://127.0.0.1:1',
            publicKey: stranger.publicKey,
            maxMessageBytes: 1 << 20,
            ticket: Buffer.alloc(16).toString('base64'),
          },
        },
        strangerKey,
      ),
      forgedLeave: await attack(
        address,
        serverKey,
        stranger,
        'worker3',
        { type: MessageType.LEAVE_REQ, payload: null },
        strangerKey,
      ),
      // the group secret and worker2's key pair, used under another name: its MACs are worker2's
      stolenKeyAsOther: await attack(
        address,
        serverKey,
        stolen,
        'worker3',
        call,
        pairKey(stolen.secretKey, serverKey, Buffer.from(secret)),
      ),
      stolenKeyLeave: await attack(
        address,
        serverKey,
        stolen,
        'worker0x',
        { type: MessageType.LEAVE_REQ, payload: null },
        pairKey(stolen.secretKey, serverKey, Buffer.from(secret)),
      ),
    };
    // a join at the rendezvous under a new name with worker2's key: the store binds a key to one name
    out.stolenKeyJoin = await requestRendezvous(
      initMethod,
      { name: 'evil', rank: -1, address: 'tcp://127.0.0.1:1', publicKey: stolen.publicKey, maxMessageBytes: 1 << 20 },
      true,
      5000,
      { secret: Buffer.from(secret), source: 'the spec' },
    ).then(
      () => 'joined',
      (e: Error) => e.message,
    );
    out.servedOnWorker1 = await rpcSync(1, 'served');
    out.membersOnWorker1 = await rpcSync(1, 'members');
    out.refusedOnWorker1 = await rpcSync(1, 'refused');
  }
  // everyone waits for rank 0's attacks before leaving
  if (rank === 0) await Promise.all([rpcSync(1, 'attacksOver'), rpcSync(2, 'attacksOver')]);
  else await attacksOver;
  const beforeShutdown = performance.now();
  await shutdown();
  out.shutdownMs = Math.round(performance.now() - beforeShutdown);
  out.ms = Math.round(performance.now() - t0);
  return out;
}
