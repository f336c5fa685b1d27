/**
 * Note [Peer liveness]
 * Every message from a peer (a request on the ROUTER, an answer on its DEALER) counts as a
 * sign of life. A peer silent for one heartbeat interval gets a HEARTBEAT_REQ, which the
 * peer answers at once, ahead of its numWorkerThreads queue; a peer silent for
 * `deadAfter` intervals (default 3) is dead: its pending calls fail with PEER_DISCONNECTED
 * and it leaves the group (Note [Membership]). This covers a killed process, a hung one
 * (SIGSTOP: its kernel keeps the TCP connection open) and a cut network path alike.
 * A worker whose event loop is blocked for longer than the window looks dead to the others.
 * The other way round, a blocked worker must not take its peers for dead: when its loop comes
 * back, the liveness timer runs before the messages that arrived meanwhile are read, so the
 * time it could not listen (how late the check runs) does not count as anyone's silence. Its
 * peers have dropped it meanwhile if the pause outlasted the window: they answer its next
 * messages with DROPPED (Note [Authenticated membership]), and its errors say that it was this
 * worker that was paused, not blame them.
 * Why not ZeroMQ's socket monitor: zeromq.js 6.8 observers keep a receive pending past their
 * socket's close (a thread terminated then aborts the process, Note [Teardown never aborts]),
 * and a DEALER monitored in a context where monitored sockets were closed before sometimes
 * never connects (seen in rapid initRpc/shutdown cycles).
 */
export class Liveness {
  private readonly lastHeard = new Map<string, number>();
  private readonly pinging = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private lastCheck = 0;
  /** the last time this worker's own loop (or process) stopped for a whole window: how long, and when it came back */
  private pause = { ms: 0, at: -Infinity };

  constructor(
    readonly intervalMs: number,
    readonly deadAfter: number,
    private readonly on: { ping(name: string): Promise<unknown>; dead(name: string, silentMs: number): void },
  ) {}

  /** The silence after which a peer is dead, in ms. */
  get windowMs(): number {
    return this.intervalMs * this.deadAfter;
  }

  track(name: string): void {
    this.lastHeard.set(name, performance.now());
    if (!this.timer) {
      this.lastCheck = performance.now();
      this.timer = setInterval(() => this.check(), this.intervalMs).unref();
    }
  }

  forget(name: string): void {
    this.lastHeard.delete(name);
    this.pinging.delete(name);
  }

  heard(name: string): void {
    if (this.lastHeard.has(name)) this.lastHeard.set(name, performance.now());
  }

  /** How long this worker was paused, if it came back from a pause longer than the window lately (else 0). */
  recentPauseMs(): number {
    return performance.now() - this.pause.at < 2 * this.windowMs + this.intervalMs ? this.pause.ms : 0;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private check(): void {
    const now = performance.now();
    // how long this worker's own loop was blocked past the interval: nobody could be heard then
    const deaf = Math.max(0, now - this.lastCheck - this.intervalMs);
    this.lastCheck = now;
    if (deaf >= this.windowMs) this.pause = { ms: deaf, at: now };
    for (const [name, heardAt] of this.lastHeard) {
      const at = Math.min(now, heardAt + deaf);
      if (deaf > 0) this.lastHeard.set(name, at);
      const silent = now - at;
      if (silent >= this.windowMs) {
        this.forget(name);
        this.on.dead(name, silent);
      } else if (silent >= this.intervalMs && !this.pinging.has(name)) {
        this.pinging.add(name);
        void this.on.ping(name).then(
          () => this.pinging.delete(name),
          () => this.pinging.delete(name),
        );
      }
    }
  }
}
