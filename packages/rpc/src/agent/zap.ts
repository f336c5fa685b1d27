import { type Context, Reply } from 'zeromq';

const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';

/** Z85 text of a binary key (ZeroMQ's RFC 32), to compare with configured public keys. */
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

/**
 * Note [CURVE authentication]
 * CURVE alone encrypts but admits any client that knows the server's public key. A ZAP
 * handler (RFC 27) on this agent's own ZeroMQ context accepts only the client keys of the
 * workers in the group, so a peer without the right keys cannot call anything.
 */
export function startZap(context: Context, allowed: () => ReadonlySet<string>): Reply {
  const sock = new Reply({ context, linger: 0 });
  void (async () => {
    await sock.bind('inproc://zeromq.zap.01');
    try {
      for await (const [version, requestId, , , , mechanism, key] of sock) {
        const ok = mechanism?.toString() === 'CURVE' && key !== undefined && allowed().has(z85Encode(key));
        await sock.send([version!, requestId!, ok ? '200' : '400', ok ? 'OK' : 'unknown client key', '', '']);
      }
    } catch {
      // the socket closed with the agent
    }
  })();
  return sock;
}
