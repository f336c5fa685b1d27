import { type Server, type Socket, connect, createServer } from 'node:net';

export interface ProxyFaults {
  /** the chance that a chunk of bytes, in either direction, resets both connections instead of passing */
  resetChance?: number;
  /** seed of the reset draws (a run with the same seed and traffic resets the same chunks) */
  seed?: number;
}

/** mulberry32: a small seeded PRNG, so a fault schedule can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A user-space TCP proxy from 127.0.0.1:`port` to 127.0.0.1:`target` that injects the faults of
 * a real network (this machine's kernel has no netem): a connection reset (RST on both sides,
 * the chunk in flight lost) with a chance per chunk, and partitions (nothing passes either way,
 * new connections wait, no error) that heal after a while.
 */
export class TcpProxy {
  /** connections reset so far */
  resets = 0;
  private readonly pairs = new Set<[Socket, Socket]>();
  private held: (() => void)[] | null = null;
  private readonly draw: () => number;

  private constructor(
    private readonly server: Server,
    private readonly target: number,
    private readonly faults: ProxyFaults,
  ) {
    this.draw = random(faults.seed ?? 1);
  }

  static async start(port: number, target: number, faults: ProxyFaults = {}): Promise<TcpProxy> {
    const server = createServer((client) => proxy.accept(client));
    const proxy = new TcpProxy(server, target, faults);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    return proxy;
  }

  /** Changes the faults from now on. */
  setResetChance(chance: number): void {
    this.faults.resetChance = chance;
  }

  /** Nothing passes for `ms`, either way; then everything held is delivered (TCP retransmits across a short cut). */
  partition(ms: number): Promise<void> {
    this.held = [];
    for (const [a, b] of this.pairs) {
      a.pause();
      b.pause();
    }
    return new Promise((resolve) =>
      setTimeout(() => {
        const held = this.held ?? [];
        this.held = null;
        for (const [a, b] of this.pairs) {
          a.resume();
          b.resume();
        }
        for (const go of held) go();
        resolve();
      }, ms),
    );
  }

  /** Resets every open connection now. */
  resetAll(): void {
    for (const pair of [...this.pairs]) this.reset(pair);
  }

  async close(): Promise<void> {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    this.pairs.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.held) {
      client.pause();
      this.held.push(() => this.accept(client));
      return;
    }
    const upstream = connect(this.target, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (this.draw() < (this.faults.resetChance ?? 0)) this.reset(pair);
        else to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const s of pair) {
      s.on('error', end);
      s.on('close', end);
      s.setNoDelay(true);
    }
  }

  private reset(pair: [Socket, Socket]): void {
    if (!this.pairs.delete(pair)) return;
    this.resets++;
    for (const s of pair) {
      if (s.destroyed) continue;
      if (s.connecting) s.destroy();
      else s.resetAndDestroy();
    }
  }
}
