import type { Context, Dealer, Router } from 'zeromq';
import { zmq } from './zeromq.js';
import type { AgentOptions } from './options.js';
import type { PeerSpec } from './peer.js';

/** How long closing sockets may still deliver what was queued (ZMQ_LINGER), in ms. */
export const LINGER_MS = 1000;

/** The agent's ROUTER: every peer's requests come in here, and their answers go out (Note [ZeroMQ agent]). */
export function openRouter(context: Context, opts: AgentOptions): Router {
  return new zmq.Router({
    context,
    linger: LINGER_MS,
    maxMessageSize: opts.maxMessageBytes,
    mandatory: false,
    // a second connection under a connected worker's name is refused, so nobody can take a
    // member's replies over; a worker that reconnects (or rejoins) gets its name back once the
    // old connection is gone: at once after a reset, after the heartbeat TTL after a silent cut
    handover: false,
    ...(opts.curve
      ? {
          curveServer: true,
          curvePublicKey: opts.curve.publicKey,
          curveSecretKey: opts.curve.secretKey,
          zapDomain: 'wiregrad',
        }
      : {}),
  });
}

/** A DEALER to peer `p`'s ROUTER, named after this worker: requests go out here and their answers come back. */
export function openDealer(context: Context, opts: AgentOptions, self: string, p: PeerSpec): Dealer {
  const dealer = new zmq.Dealer({
    context,
    routingId: self,
    linger: LINGER_MS,
    maxMessageSize: opts.maxMessageBytes,
    heartbeatInterval: opts.heartbeatMs,
    heartbeatTimeout: opts.heartbeatMs * 3,
    heartbeatTimeToLive: opts.heartbeatMs * 3,
    reconnectInterval: 100,
    ...(opts.curve && p.publicKey
      ? {
          curvePublicKey: opts.curve.publicKey,
          curveSecretKey: opts.curve.secretKey,
          curveServerKey: p.publicKey,
        }
      : {}),
  });
  dealer.connect(p.address);
  return dealer;
}
