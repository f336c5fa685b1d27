import type { Context, Dealer, Router } from 'zeromq';
import { zmq } from './zeromq.js';
import type { AgentOptions } from './options.js';
import type { PeerSpec } from './peer.js';
import type { SendQueue } from './sendQueue.js';

/** A ROUTER the agent serves on, with its send queue (the answers to a request go out where it came in). */
export interface Listener {
  router: Router;
  queue: SendQueue;
}

/** How long closing sockets may still deliver what was queued (ZMQ_LINGER), in ms. */
export const LINGER_MS = 1000;

/**
 * Note [Teardown never aborts]
 * zeromq.js aborts the process (`terminate called after throwing an instance of
 * 'Napi::Error'`, exit 134) when a worker_threads thread ends or is terminated while a
 * receive is still pending on any of its sockets or observers. Closing a socket settles its
 * pending receive, but a socket's event observer (`socket.events`) stays open after its
 * socket closed: minimal repro, in a thread: `const d = new Dealer(); d.connect(addr);
 * (async () => { for await (const e of d.events) {} })(); d.close();` then
 * `worker.terminate()` from the main thread aborts; closing `d.events` first does not.
 * So this agent opens no observer (Note [Peer liveness]) and close() closes every socket
 * it opened (the ROUTER, every DEALER, the ZAP handler); the rendezvous store closes its
 * own. A thread terminated (or a process exiting) before shutdown() resolved: see
 * Note [Terminating a thread that runs RPC].
 */

/** Closes `socket` dropping whatever it still holds: nobody waits for it (a departed peer's, or at shutdown). */
export function dropSocket(socket: Dealer | Router): void {
  socket.linger = 0;
  socket.close();
}

/**
 * A ROUTER of the agent: every peer's requests come in here, and their answers go out (Note
 * [ZeroMQ agent]). `local`: the one on this machine's Unix socket, without CURVE (Note
 * [Same-machine peers over Unix sockets]).
 */
export function openRouter(context: Context, opts: AgentOptions, local = false): Router {
  return new zmq.Router({
    context,
    linger: LINGER_MS,
    maxMessageSize: opts.maxMessageBytes,
    mandatory: false,
    // a second connection under a connected worker's name is refused, so nobody can take a
    // member's replies over; a worker that reconnects (or rejoins) gets its name back once the
    // old connection is gone: at once after a reset, after the heartbeat TTL after a silent cut
    handover: false,
    ...(opts.curve && !local
      ? {
          curveServer: true,
          curvePublicKey: opts.curve.publicKey,
          curveSecretKey: opts.curve.secretKey,
          zapDomain: 'wiregrad',
        }
      : {}),
  });
}

/**
 * A DEALER to peer `p`'s ROUTER at `address`, named after this worker: requests go out here and
 * their answers come back. To its Unix socket (`local`) without CURVE.
 */
export function openDealer(
  context: Context,
  opts: AgentOptions,
  self: string,
  p: PeerSpec,
  address: string,
  local: boolean,
): Dealer {
  const dealer = new zmq.Dealer({
    context,
    routingId: self,
    linger: LINGER_MS,
    maxMessageSize: opts.maxMessageBytes,
    heartbeatInterval: opts.heartbeatMs,
    heartbeatTimeout: opts.heartbeatMs * 3,
    heartbeatTimeToLive: opts.heartbeatMs * 3,
    reconnectInterval: 100,
    ...(opts.curve && p.publicKey && !local
      ? {
          curvePublicKey: opts.curve.publicKey,
          curveSecretKey: opts.curve.secretKey,
          curveServerKey: p.publicKey,
        }
      : {}),
  });
  dealer.connect(address);
  return dealer;
}
