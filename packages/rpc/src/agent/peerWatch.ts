import type { Dealer } from 'zeromq';

export interface ConnectionEvents {
  /** the agent is closing: stop reporting */
  closed(): boolean;
  up(): void;
  down(): void;
}

/**
 * Note [Peer liveness]
 * Every DEALER sends ZeroMQ heartbeats (ZMQ_HEARTBEAT_IVL, TIMEOUT and TTL = 3 intervals), so
 * ZeroMQ drops a connection whose peer died (TCP closed) or hung (no PONG). A peer that
 * ZeroMQ reports disconnected and that has not come back within `graceMs` is down: ZeroMQ
 * reconnects by itself after transient drops. Only a completed ZMTP handshake counts as back,
 * since the kernel of a hung (stopped) process still accepts TCP connections.
 */
export async function watchConnection(dealer: Dealer, graceMs: number, on: ConnectionEvents): Promise<void> {
  let connected = true;
  try {
    for await (const event of dealer.events) {
      if (event.type === 'handshake') {
        connected = true;
        on.up();
      }
      if (event.type !== 'disconnect' || on.closed()) continue;
      connected = false;
      setTimeout(() => {
        if (!connected && !on.closed()) on.down();
      }, graceMs).unref();
    }
  } catch {
    // the observer ends when the socket closes
  }
}
