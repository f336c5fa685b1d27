import { createRequire } from 'node:module';
import { Dealer, Router } from 'zeromq';

interface MsgPack {
  encode(value: unknown): Uint8Array;
  decode(data: Uint8Array): unknown;
}
// the rendezvous speaks MessagePack: use the codec @wiregrad/rpc itself resolves (not a dependency of this package)
const msgpack = createRequire(new URL('../../../../rpc/package.json', import.meta.url))('@msgpack/msgpack') as MsgPack;

/** Replaces every string equal to a key of `map` anywhere in a decoded MessagePack value. */
function rewrite(value: unknown, map: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return map.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => rewrite(v, map));
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v, map)]));
  }
  return value;
}

function rewriteFrame(frame: Uint8Array, map: ReadonlyMap<string, string>): Uint8Array {
  let decoded: unknown;
  try {
    decoded = msgpack.decode(frame);
  } catch {
    return frame; // not MessagePack: forwarded as is
  }
  return msgpack.encode(rewrite(decoded, map));
}

/**
 * Note [Proxies between workers]
 * A worker advertises the address it listens on, and its peers connect to exactly that, so a
 * proxy can only sit between workers if the peers learn the proxy's address instead. This
 * relay stands in front of the rendezvous store (rank 0's ROUTER at the init address): the
 * other ranks rendezvous through it, and every worker address in the records passing through
 * (theirs on the way to rank 0, everyone's on the way back) is replaced by the address of the
 * proxy in front of that worker. Every worker then reaches every other one, rank 0 included,
 * through the proxies, while the rendezvous itself goes direct. Messages are forwarded both
 * ways for as long as the relay runs, one upstream DEALER per client.
 * (A `backendOptions.advertiseAddress` in @wiregrad/rpc would make this relay unnecessary.)
 */
export class RendezvousRelay {
  private readonly router = new Router({ linger: 0 });
  private readonly upstreams = new Map<string, Dealer>();
  /** zeromq.js allows one send at a time per socket: answers to several clients queue here */
  private sending: Promise<void> = Promise.resolve();
  private closed = false;
  /** messages forwarded to the store and back */
  forwarded = 0;
  /** why a forwarding loop ended while the relay was open */
  error: Error | null = null;
  address = '';

  constructor(
    private readonly storeAddress: string,
    /** real listen address -> the proxy address peers should use */
    private readonly addresses: ReadonlyMap<string, string>,
  ) {}

  async start(address = 'tcp://127.0.0.1:0'): Promise<string> {
    await this.router.bind(address);
    this.address = this.router.lastEndpoint ?? address;
    void this.clientLoop();
    return this.address;
  }

  private async clientLoop(): Promise<void> {
    try {
      for await (const [id, ...frames] of this.router) {
        const key = Buffer.from(id!).toString('hex');
        let up = this.upstreams.get(key);
        if (!up) {
          up = new Dealer({ linger: 0, reconnectInterval: 50 });
          up.connect(this.storeAddress);
          this.upstreams.set(key, up);
          void this.upstreamLoop(id!, up);
        }
        this.forwarded++;
        await up.send(frames.map((f) => rewriteFrame(f, this.addresses)));
      }
    } catch (e) {
      if (!this.closed) this.error ??= e as Error;
    }
  }

  private async upstreamLoop(id: Uint8Array, up: Dealer): Promise<void> {
    try {
      for await (const frames of up) {
        this.forwarded++;
        const out = [id, ...frames.map((f) => rewriteFrame(f, this.addresses))];
        const sent = this.sending.then(() => this.router.send(out));
        this.sending = sent.catch(() => {});
        await sent;
      }
    } catch (e) {
      if (!this.closed) this.error ??= e as Error;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const d of this.upstreams.values()) d.close();
    this.router.close();
  }
}
