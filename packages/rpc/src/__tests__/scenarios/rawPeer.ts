import { Dealer } from 'zeromq';
import { encodeMessage, type OutgoingMessage } from '@wiregrad/rpc/internal';
import { signHead } from '../../messages/message.js';

/** A CURVE key pair as zeromq's curveKeyPair() gives it (Z85 strings). */
export interface KeyPair {
  publicKey: string;
  secretKey: string;
}

/**
 * A raw ZeroMQ DEALER, no member of any group, that connects to `address` with `options`
 * (identity, CURVE keys, receive timeout) and sends `msg` with request id 1, its head signed with
 * `macKey` if given: true if anything at all came back before the receive timeout.
 */
export async function rawPeerAnswered(
  address: string,
  msg: OutgoingMessage,
  options: ConstructorParameters<typeof Dealer>[0],
  macKey: Buffer | null = null,
): Promise<boolean> {
  const raw = new Dealer({ linger: 0, ...options });
  raw.connect(address);
  try {
    const frames = encodeMessage({ ...msg, id: 1 }, { deviceMap: {}, peer: 1 });
    if (macKey) frames[0] = signHead(frames[0]!, macKey);
    await raw.send(frames);
    await raw.receive();
    return true;
  } catch {
    return false;
  } finally {
    raw.close();
  }
}
