import { createHmac, createPrivateKey, createPublicKey, diffieHellman, timingSafeEqual } from 'node:crypto';
import { RpcError } from '../errors.js';

const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
const Z85_VALUE = new Map([...Z85].map((c, i) => [c, i]));

/** Z85 text of a binary key (ZeroMQ's RFC 32), as zeromq takes and gives CURVE keys. */
export function z85Encode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4) {
    let value = ((bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!) >>> 0;
    let chunk = '';
    for (let k = 0; k < 5; k++) {
      chunk = Z85[value % 85]! + chunk;
      value = Math.floor(value / 85);
    }
    out += chunk;
  }
  return out;
}

/** The bytes of a Z85 key (40 characters: 32 bytes). */
export function z85Decode(text: string): Buffer {
  if (typeof text !== 'string' || text.length !== 40)
    throw new RpcError('INVALID_ARGUMENT', `a CURVE key is 40 Z85 characters, got ${String(text).length}`);
  const out = Buffer.alloc(32);
  for (let i = 0; i < 8; i++) {
    let value = 0;
    for (let k = 0; k < 5; k++) {
      const v = Z85_VALUE.get(text[i * 5 + k]!);
      if (v === undefined) throw new RpcError('INVALID_ARGUMENT', `a CURVE key holds a character outside Z85`);
      value = value * 85 + v;
    }
    out.writeUInt32BE(value >>> 0, i * 4);
  }
  return out;
}

// DER prefixes of an X25519 key's PKCS#8 (private) and SPKI (public) encodings (RFC 8410)
const PKCS8 = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI = Buffer.from('302a300506032b656e032100', 'hex');

/** Bytes of a MAC on the wire (HMAC-SHA256, truncated as RFC 2104 allows). */
export const MAC_BYTES = 16;

/**
 * Note [Authenticated membership]
 * Unless `insecure: true`, only processes that hold the group secret (Note [Group secret]) are
 * served, and each member speaks only for its own name:
 * - The rendezvous proves the secret both ways without sending it: a request carries an
 *   HMAC of its body and a fresh nonce, the store's reply an HMAC of the nonce and the reply. A
 *   worker with another secret gets an AUTH error naming where each side took its secret from.
 * - Each worker has a CURVE key pair (generated per run, or `backendOptions.curve`); the table
 *   binds each public key to one name and id (the store refuses a key a member already has),
 *   and every connection is CURVE-encrypted, its server authenticated by the key in the table.
 * - ZeroMQ does not tell a ROUTER which key a message came over, so every message a worker
 *   sends to a peer's ROUTER is SIGNED (Note [Message framing]) with the key of the pair
 *   (pairKey: only the two holders of the secret keys can compute it, and only with the group
 *   secret). A message from a name that is not a member, or not signed with that member's pair
 *   key, gets no answer at all: a counter (getRpcStats().refused) and one log line per sender.
 *   So JOIN_REQ, LEAVE_REQ, heartbeats and ACKs are accepted only from the key that owns the name.
 * - A joiner shows the store's ticket (an HMAC over its name, id, address and key) in its
 *   JOIN_REQ, signed with the key the ticket names.
 * - A second connection under a connected member's name is refused (ROUTER handover off).
 * Availability is not protected: a process that reaches a port can occupy a name's connection
 * while its member is disconnected, or flood it. docs/security.md has the whole threat model.
 */

/**
 * The key of the MACs between two workers (Note [Authenticated membership]): the X25519
 * agreement of this worker's CURVE secret key with the peer's public key (the same on both
 * sides, and only their holders can compute it), bound to the group secret.
 */
export function pairKey(secretKeyZ85: string, peerPublicKeyZ85: string, groupSecret: Buffer): Buffer {
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8, z85Decode(secretKeyZ85)]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey({
    key: Buffer.concat([SPKI, z85Decode(peerPublicKeyZ85)]),
    format: 'der',
    type: 'spki',
  });
  const shared = diffieHellman({ privateKey, publicKey });
  return createHmac('sha256', groupSecret).update('wiregrad pair key').update(shared).digest();
}

/** The MAC of `parts` under `key`. */
export function mac(key: Buffer, ...parts: (Uint8Array | string)[]): Buffer {
  const h = createHmac('sha256', key);
  for (const p of parts) h.update(p);
  return h.digest().subarray(0, MAC_BYTES);
}

/** Whether `tag` is the MAC of `parts` under `key` (in constant time). */
export function macMatches(tag: Uint8Array, key: Buffer, ...parts: (Uint8Array | string)[]): boolean {
  return tag.byteLength === MAC_BYTES && timingSafeEqual(tag, mac(key, ...parts));
}
