import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxyOptions {
  /** where connections are forwarded */
  target: { host: string; port: number };
  /** where the proxy listens (default 127.0.0.1, a free port) */
  listen?: { host?: string; port?: number };
  /** added to every chunk, in each direction, in ms (default 0) */
  latencyMs?: number;
  /** the chance that a chunk, in either direction, resets its connection instead of passing (default 0) */
  resetChance?: number;
  /** seed of the reset draws: the same seed and traffic reset the same chunks (default 1) */
  seed?: number;
  /**
   * chunks each connection passes, both directions together, before its draws begin (default 0):
   * a connection's handshake (ZeroMQ's greeting and CURVE's four commands, about ten chunks)
   * gets through, and each later chunk resets it at `resetChance`
   */
  passFirst?: number;
}

/** mulberry32: a small seeded PRNG, so a fault schedule can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One direction of a proxied connection: chunks wait `latencyMs`, then leave in arrival order. */
class DelayLine {
  private readonly queue: { at: number; chunk: Buffer | null }[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** bytes received and not yet forwarded */
  held = 0;

  constructor(
    private readonly to: Socket,
    private readonly latencyMs: number,
  ) {}

  /** `null` forwards the end of the stream (FIN) after the same delay. */
  push(chunk: Buffer | null): void {
    this.queue.push({ at: performance.now() + this.latencyMs, chunk });
    this.held += chunk?.length ?? 0;
    if (this.latencyMs <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.latencyMs);
  }

  private flush(): void {
    this.timer = null;
    const now = performance.now();
    // release times grow with arrival times, so the queue leaves in order (byte order kept)
    while (this.queue.length > 0 && this.queue[0]!.at <= now + 0.5) {
      const { chunk } = this.queue.shift()!;
      if (this.to.destroyed) continue;
      if (chunk === null) this.to.end();
      else {
        this.held -= chunk.length;
        this.to.write(chunk);
      }
    }
    if (this.queue.length > 0) this.timer = setTimeout(() => this.flush(), Math.max(1, this.queue[0]!.at - now));
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue.length = 0;
    this.held = 0;
  }
}

export type Direction = 'up' | 'down' | 'both';

interface Link {
  client: Socket;
  upstream: Socket;
  up: DelayLine;
  down: DelayLine;
  /** sockets of the link that have closed (0..2) */
  closed: number;
  /** chunks that arrived on it, both directions */
  chunks: number;
}

export interface TcpProxyStats {
  /** connections accepted and forwarded */
  accepted: number;
  /** connections refused while refusing */
  refused: number;
  /** connections ended by cut() */
  cut: number;
  /** connections reset by a chunk's draw (resetChance) */
  reset: number;
  bytesUp: number;
  bytesDown: number;
}

/**
 * A user-space TCP proxy for network specs: listens on a port, forwards every connection to
 * `target`, delays each direction by `latencyMs` (bytes keep their order), and can cut every
 * connection it carries on demand, optionally refusing new ones for a while (a peer that
 * vanished from the network, then came back), resets a connection at random chunks
 * (`resetChance`, seeded), and partitions: nothing passes either way for a while, without an
 * error, then everything held arrives (TCP retransmitting across a short cut). ZeroMQ (ZMTP
 * over TCP) runs through it unchanged. This machine's kernel has no netem: this is its stand-in.
 */
export class TcpProxy {
  private readonly server: Server;
  private readonly links = new Set<Link>();
  private refuseUntil = 0;
  private dataWatchers: { minBytes: number; containing: Buffer | null; direction: Direction; fire: () => void }[] = [];
  readonly stats: TcpProxyStats = { accepted: 0, refused: 0, cut: 0, reset: 0, bytesUp: 0, bytesDown: 0 };
  private readonly draw: () => number;
  /** while partitioned: the connections that arrived meanwhile, accepted when it heals */
  private waiting: Socket[] | null = null;
  port = 0;
  host = '127.0.0.1';

  constructor(private readonly opts: TcpProxyOptions) {
    // half-open sockets: an end (FIN) travels through the delay line like data
    this.server = createServer({ allowHalfOpen: true }, (client) => this.accept(client));
    this.draw = seeded(opts.seed ?? 1);
  }

  /** Changes the chance that a chunk resets its connection, from now on. */
  setResetChance(chance: number): void {
    this.opts.resetChance = chance;
  }

  /** Nothing passes, either way, for `ms` (new connections wait too); then everything held goes on. */
  partition(ms: number): Promise<void> {
    this.waiting = [];
    for (const l of this.links) {
      l.client.pause();
      l.upstream.pause();
    }
    return new Promise((resolve) =>
      setTimeout(() => {
        const waiting = this.waiting ?? [];
        this.waiting = null;
        for (const l of this.links) {
          l.client.resume();
          l.upstream.resume();
        }
        for (const client of waiting) this.accept(client);
        resolve();
      }, ms),
    );
  }

  /** Starts listening; resolves with the port. */
  async start(): Promise<number> {
    this.host = this.opts.listen?.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.opts.listen?.port ?? 0, this.host, () => resolve());
    });
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  get address(): string {
    return `tcp://${this.host}:${this.port}`;
  }

  /** Connections open now. */
  get connections(): number {
    return this.links.size;
  }

  /** Bytes received by the proxy and not yet delivered (in its delay lines). */
  get held(): number {
    let n = 0;
    for (const l of this.links) n += l.up.held + l.down.held;
    return n;
  }

  private accept(client: Socket): void {
    if (this.waiting) {
      client.pause();
      this.waiting.push(client);
      return;
    }
    client.resume();
    client.setNoDelay(true);
    if (performance.now() < this.refuseUntil) {
      this.stats.refused++;
      client.resetAndDestroy();
      return;
    }
    this.stats.accepted++;
    const upstream = connect({ host: this.opts.target.host, port: this.opts.target.port, allowHalfOpen: true });
    upstream.setNoDelay(true);
    const latency = this.opts.latencyMs ?? 0;
    const link: Link = {
      client,
      upstream,
      up: new DelayLine(upstream, latency),
      down: new DelayLine(client, latency),
      closed: 0,
      chunks: 0,
    };
    this.links.add(link);
    client.on('data', (chunk) => {
      if (this.resets(link)) return;
      this.stats.bytesUp += chunk.length;
      link.up.push(chunk);
      this.watch('up', chunk);
    });
    upstream.on('data', (chunk) => {
      if (this.resets(link)) return;
      this.stats.bytesDown += chunk.length;
      link.down.push(chunk);
      this.watch('down', chunk);
    });
    client.on('end', () => link.up.push(null));
    upstream.on('end', () => link.down.push(null));
    // an error on one side (a reset, a refused upstream) resets the other
    client.on('error', () => this.drop(link, true));
    upstream.on('error', () => this.drop(link, true));
    const closed = () => {
      if (++link.closed === 2) this.links.delete(link);
    };
    client.on('close', closed);
    upstream.on('close', closed);
  }

  /** Whether this chunk's draw resets its connection (the chunk is lost with it). */
  private resets(link: Link): boolean {
    if (++link.chunks <= (this.opts.passFirst ?? 0)) return false;
    if (!(this.opts.resetChance! > 0) || this.draw() >= this.opts.resetChance!) return false;
    if (this.drop(link, true)) this.stats.reset++;
    return true;
  }

  private watch(direction: 'up' | 'down', chunk: Buffer): void {
    if (this.dataWatchers.length === 0) return;
    const fires = (w: (typeof this.dataWatchers)[number]) =>
      chunk.length >= w.minBytes &&
      (w.containing === null || chunk.includes(w.containing)) &&
      (w.direction === 'both' || w.direction === direction);
    const firing = this.dataWatchers.filter(fires);
    this.dataWatchers = this.dataWatchers.filter((w) => !fires(w));
    for (const w of firing) w.fire();
  }

  /** Ends a connection: `reset` sends both sides an RST (else a plain close); bytes the proxy still holds are lost. */
  private drop(link: Link, reset: boolean): boolean {
    if (!this.links.delete(link)) return false;
    link.up.stop();
    link.down.stop();
    for (const s of [link.client, link.upstream]) {
      if (s.destroyed) continue;
      if (reset && s.readyState === 'open') s.resetAndDestroy();
      else s.destroy();
    }
    return true;
  }

  /**
   * Cuts every connection now (both ends see a reset; what the proxy held is lost) and,
   * with `refuseMs`, resets every new connection for that long. Returns how many were cut.
   */
  cut(opts: { refuseMs?: number } = {}): number {
    if (opts.refuseMs) this.refuseUntil = performance.now() + opts.refuseMs;
    let n = 0;
    for (const l of [...this.links]) if (this.drop(l, true)) n++;
    this.stats.cut += n;
    return n;
  }

  /**
   * Cuts every connection the moment a chunk of at least `minBytes` arrives in `direction`
   * ('up': from a client towards the target, 'down': back, default 'both'): that chunk is then in the proxy's hands and is lost with the cut, so a
   * message is known to be in flight (with `latencyMs` > 0). With `containing`, only a chunk
   * holding those bytes (say, the name of the function a call runs) counts. Resolves with the
   * number of connections cut.
   */
  cutOnNextData(opts: {
    minBytes: number;
    containing?: string;
    direction?: Direction;
    refuseMs?: number;
  }): Promise<number> {
    return new Promise((resolve) => {
      this.dataWatchers.push({
        minBytes: opts.minBytes,
        containing: opts.containing === undefined ? null : Buffer.from(opts.containing),
        direction: opts.direction ?? 'both',
        fire: () => resolve(this.cut(opts)),
      });
    });
  }

  /** Stops listening and closes every connection. */
  async close(): Promise<void> {
    this.dataWatchers = [];
    for (const l of [...this.links]) this.drop(l, false);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
