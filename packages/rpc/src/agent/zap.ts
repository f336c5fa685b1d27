import type { Context, Reply } from 'zeromq';
import { zmq } from './zeromq.js';
import { z85Encode } from '../auth/keys.js';

/**
 * Note [CURVE authentication]
 * CURVE alone encrypts but admits any client that knows the server's public key. With keys
 * given in `backendOptions.curve`, a ZAP handler (RFC 27) on this agent's own ZeroMQ context
 * accepts only the client keys of the workers in the group, so a peer without the right keys
 * cannot even connect; `refused(address)` hears of every other one. (With generated keys, the
 * default, every request is authenticated instead: Note [Authenticated membership].)
 */
export function startZap(
  context: Context,
  allowed: () => ReadonlySet<string>,
  refused: (address: string) => void,
): Reply {
  const sock = new zmq.Reply({ context, linger: 0 });
  void (async () => {
    await sock.bind('inproc://zeromq.zap.01');
    try {
      for await (const [version, requestId, , address, , mechanism, key] of sock) {
        const ok = mechanism?.toString() === 'CURVE' && key !== undefined && allowed().has(z85Encode(key));
        if (!ok) refused(address?.toString() ?? 'an unknown address');
        await sock.send([version!, requestId!, ok ? '200' : '400', ok ? 'OK' : 'unknown client key', '', '']);
      }
    } catch {
      // the socket closed with the agent
    }
  })();
  return sock;
}
