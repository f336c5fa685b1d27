import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TcpProxy } from './tcpProxy.js';

/** An echo server that counts its connections and what it received. */
async function echoServer(): Promise<{
  server: Server;
  port: number;
  sockets: Set<Socket>;
  accepted: () => number;
  received: () => number;
}> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let received = 0;
  const server = createServer({ allowHalfOpen: true }, (s) => {
    accepted++;
    sockets.add(s);
    s.on('data', (d) => {
      received += d.length;
      s.write(d);
    });
    s.on('end', () => s.end());
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    server,
    port: (server.address() as { port: number }).port,
    sockets,
    accepted: () => accepted,
    received: () => received,
  };
}

function dial(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, allowHalfOpen: true }, () => resolve(s));
    s.setNoDelay(true);
    s.once('error', reject);
  });
}

/** Resolves with everything `s` receives until `bytes` have arrived. */
function readBytes(s: Socket, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let n = 0;
    const onData = (d: Buffer) => {
      parts.push(d);
      n += d.length;
      if (n >= bytes) {
        s.off('data', onData);
        s.off('error', reject);
        resolve(Buffer.concat(parts));
      }
    };
    s.on('data', onData);
    s.on('error', reject);
  });
}

const closeEvent = (s: Socket) =>
  new Promise<{ hadError: boolean; error: string | null }>((resolve) => {
    let error: string | null = null;
    s.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    s.once('close', (hadError) => resolve({ hadError, error }));
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Asserts that `value()` comes to be `expected`, polling: bytes forwarded after the proxy's
 * latency reach the target when this process gets to run the proxy's timer and the target's
 * read, which on a loaded machine can be well after a fixed sleep (`ms` only bounds a failure).
 */
async function eventually<T>(value: () => T, expected: T, ms = 3000): Promise<void> {
  const end = performance.now() + ms;
  while (value() !== expected && performance.now() < end) await sleep(1);
  expect(value()).toBe(expected);
}

describe('TcpProxy (network test helper)', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f();
  });

  async function setup(latencyMs: number, faults: { resetChance?: number; seed?: number; passFirst?: number } = {}) {
    const echo = await echoServer();
    cleanup.push(
      () => new Promise((r) => echo.server.close(r)),
      () => echo.sockets.forEach((s) => s.destroy()),
    );
    const proxy = new TcpProxy({ target: { host: '127.0.0.1', port: echo.port }, latencyMs, ...faults });
    await proxy.start();
    cleanup.push(() => proxy.close());
    return { echo, proxy };
  }

  it('adds its latency each way: a round trip through a 20 ms proxy takes 40 ms more than a direct one', async () => {
    const { echo, proxy } = await setup(20);
    const roundTrip = async (port: number) => {
      const s = await dial(port);
      cleanup.push(() => s.destroy());
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        const back = readBytes(s, 5);
        s.write('ping!');
        expect((await back).toString()).toBe('ping!');
        times.push(performance.now() - t0);
      }
      return times.sort((a, b) => a - b)[5]!;
    };
    const direct = await roundTrip(echo.port);
    const proxied = await roundTrip(proxy.port);
    expect(proxied).toBeGreaterThanOrEqual(40);
    expect(proxied - direct).toBeGreaterThanOrEqual(39);
    expect(proxied - direct).toBeLessThan(40 + 60); // timer slack on a loaded machine
    console.log(
      `tcpProxy: median round trip direct ${direct.toFixed(2)} ms, through a 20 ms proxy ${proxied.toFixed(2)} ms`,
    );
  });

  it('keeps byte order across many writes of random sizes, in both directions, and forwards a half close', async () => {
    const { echo, proxy } = await setup(5);
    const s = await dial(proxy.port);
    cleanup.push(() => s.destroy());
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const chunks: Buffer[] = [];
    for (let i = 0; i < 400; i++)
      chunks.push(Buffer.from(Array.from({ length: 1 + (next() % 3000) }, () => next() % 256)));
    const sent = Buffer.concat(chunks);
    const received = readBytes(s, sent.length);
    const ended = new Promise<void>((r) => s.once('end', () => r()));
    for (const [i, c] of chunks.entries()) {
      s.write(c);
      if (i % 50 === 0) await sleep(next() % 7);
    }
    s.end();
    expect((await received).equals(sent)).toBe(true);
    await ended; // the server saw our FIN (after everything), ended its side, and that came back too
    expect(echo.received()).toBe(sent.length);
    expect(proxy.stats.bytesUp).toBe(sent.length);
    expect(proxy.stats.bytesDown).toBe(sent.length);
  });

  it('cut() resets every connection on both sides, and new connections go through again', async () => {
    const { echo, proxy } = await setup(10);
    const a = await dial(proxy.port);
    const b = await dial(proxy.port);
    cleanup.push(
      () => a.destroy(),
      () => b.destroy(),
    );
    a.write('x');
    b.write('y');
    await Promise.all([readBytes(a, 1), readBytes(b, 1)]);
    expect(echo.sockets.size).toBe(2);
    expect(proxy.connections).toBe(2);
    const closedA = closeEvent(a);
    const closedB = closeEvent(b);
    const upstreamClosed = [...echo.sockets].map(closeEvent);
    expect(proxy.cut()).toBe(2);
    expect(await closedA).toEqual({ hadError: true, error: 'ECONNRESET' });
    expect(await closedB).toEqual({ hadError: true, error: 'ECONNRESET' });
    for (const c of await Promise.all(upstreamClosed)) expect(c).toEqual({ hadError: true, error: 'ECONNRESET' });
    expect(proxy.connections).toBe(0);
    expect(proxy.stats.cut).toBe(2);
    const c = await dial(proxy.port);
    cleanup.push(() => c.destroy());
    const back = readBytes(c, 5);
    c.write('again');
    expect((await back).toString()).toBe('again');
  });

  it('cut({ refuseMs }) resets new connections for that long without reaching the target', async () => {
    const { echo, proxy } = await setup(0);
    const a = await dial(proxy.port);
    cleanup.push(() => a.destroy());
    const closedA = closeEvent(a);
    await sleep(20);
    expect(proxy.cut({ refuseMs: 400 })).toBe(1);
    await closedA;
    const acceptedBefore = echo.accepted();
    // the proxy accepts and resets at once: the client may see the reset before or after its connect
    const refused = connect({ host: '127.0.0.1', port: proxy.port });
    expect(await closeEvent(refused)).toEqual({ hadError: true, error: 'ECONNRESET' });
    expect(proxy.stats.refused).toBe(1);
    expect(echo.accepted()).toBe(acceptedBefore);
    await sleep(450);
    const later = await dial(proxy.port);
    cleanup.push(() => later.destroy());
    const back = readBytes(later, 4);
    later.write('back');
    expect((await back).toString()).toBe('back');
    expect(echo.accepted()).toBe(acceptedBefore + 1);
  });

  it('cutOnNextData() cuts while the chunk is held: those bytes never reach the target', async () => {
    const { echo, proxy } = await setup(30);
    const a = await dial(proxy.port);
    cleanup.push(() => a.destroy());
    a.write('hello');
    await readBytes(a, 5);
    const receivedBefore = echo.received();
    const closed = closeEvent(a);
    const cut = proxy.cutOnNextData({ minBytes: 100 });
    a.write('small'); // below minBytes: forwarded (a fixed sleep(60) missed it at load 12, 1 of 30 runs)
    await eventually(() => echo.received(), receivedBefore + 5);
    a.write(Buffer.alloc(200, 7));
    expect(await cut).toBe(1);
    expect((await closed).error).toBe('ECONNRESET');
    await sleep(60);
    expect(echo.received()).toBe(receivedBefore + 5);
  });

  it('cutOnNextData({ containing }) lets chunks without those bytes through and cuts on the first one holding them', async () => {
    const { echo, proxy } = await setup(30);
    const a = await dial(proxy.port);
    cleanup.push(() => a.destroy());
    const closed = closeEvent(a);
    const cut = proxy.cutOnNextData({ minBytes: 1, containing: 'net.forward' });
    a.write('net.backward, a big chunk without the name'); // forwarded
    await readBytes(a, 42);
    const receivedBefore = echo.received();
    a.write('call net.forward');
    expect(await cut).toBe(1);
    expect((await closed).error).toBe('ECONNRESET');
    await sleep(60);
    expect(echo.received()).toBe(receivedBefore);
  });

  it('resetChance resets connections at seeded random chunks: the same seed and traffic reset the same chunks', async () => {
    const run = async (seed: number) => {
      const { proxy } = await setup(0, { resetChance: 0.3, seed });
      const outcomes: boolean[] = [];
      for (let i = 0; i < 20; i++) {
        const s = await dial(proxy.port);
        cleanup.push(() => s.destroy());
        const closed = closeEvent(s);
        const back = readBytes(s, 1).then(
          () => true,
          () => false,
        );
        s.write('x');
        outcomes.push(await Promise.race([back, closed.then(() => false)]));
      }
      return { outcomes, resets: proxy.stats.reset };
    };
    const a = await run(7);
    const b = await run(7);
    expect(a.outcomes).toEqual(b.outcomes);
    expect(a.resets).toBeGreaterThan(0);
    expect(a.outcomes.filter((ok) => ok).length).toBeGreaterThan(0);
  });

  it('passFirst: the first chunks of every connection pass (a handshake), the draws begin after them', async () => {
    const { proxy } = await setup(0, { resetChance: 1, passFirst: 4 });
    for (let c = 0; c < 3; c++) {
      const s = await dial(proxy.port);
      cleanup.push(() => s.destroy());
      const closed = closeEvent(s);
      // two echoed writes: 4 chunks through the proxy (each write up, its echo down)
      for (const x of ['a', 'b']) {
        const back = readBytes(s, 1);
        s.write(x);
        expect((await back).toString()).toBe(x);
      }
      s.write('c'); // the fifth chunk draws, and resetChance 1 resets
      expect((await closed).error).toBe('ECONNRESET');
    }
    expect(proxy.stats.reset).toBe(3);
  });

  it('partition(ms) holds every byte and every new connection for that long, then delivers them in order, without an error', async () => {
    const { echo, proxy } = await setup(0);
    const a = await dial(proxy.port);
    cleanup.push(() => a.destroy());
    a.write('x');
    await readBytes(a, 1);
    const t0 = performance.now();
    const healed = proxy.partition(150);
    const back = readBytes(a, 6);
    a.write('before');
    const late = dial(proxy.port);
    await sleep(60);
    expect(echo.received()).toBe(1);
    expect((await back).toString()).toBe('before');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    await healed;
    const b = await late;
    cleanup.push(() => b.destroy());
    const echoed = readBytes(b, 5);
    b.write('after');
    expect((await echoed).toString()).toBe('after');
  });
});
