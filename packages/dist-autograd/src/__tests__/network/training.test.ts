import { afterEach, describe, expect, it } from 'vitest';
import { freePorts } from '@wiregrad/test-helpers';
import {
  exits,
  loopbackRun,
  median,
  okResult,
  trainerStepMs,
  TRAINING,
  WorkerProcesses,
  type Exit,
  type Line,
  type WorkerProcess,
} from './processes.js';
import { RendezvousRelay } from './rendezvousRelay.js';
import { TcpProxy } from './tcpProxy.js';

const STEPS = TRAINING.steps;
const LOCAL = '127.0.0.1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('parameter-server training between processes over TCP (psTraining.ts)', () => {
  const procs = new WorkerProcesses();
  const closers: (() => unknown)[] = [];
  afterEach(async () => {
    await procs.killAll();
    for (const close of closers.splice(0).reverse()) await close();
  });

  let reference: number[][] | null = null;
  let loopbackStepMs: number[] = [];

  async function referenceParams(): Promise<number[][]> {
    if (!reference) {
      const es = await loopbackRun(procs);
      reference = okResult(es[0]!).params;
      loopbackStepMs = trainerStepMs(es);
    }
    return reference;
  }

  /**
   * The same three workers, with a TcpProxy in front of each worker's listen port: every
   * connection to a worker (from its peers, and a trainer's own self-connection) crosses that
   * worker's proxy. The rendezvous goes through a RendezvousRelay that hands out the proxies'
   * addresses (Note [Proxies between workers]).
   */
  async function proxiedRun(o: {
    latencyMs: number;
    args?: Record<string, number>;
    during?: (w: WorkerProcess[], proxies: TcpProxy[]) => Promise<void>;
  }) {
    const ranks = [0, 1, 2];
    // every port picked at once, so none of them is picked twice: the store, the relay, the workers, their proxies
    // (below the kernel's ephemeral range: the workers bind theirs seconds later, once their processes run)
    const [store, relayPort, ...rest] = await freePorts(8);
    const ports = rest.slice(0, 3);
    const proxies = ports.map(
      (port, r) =>
        new TcpProxy({
          target: { host: LOCAL, port },
          listen: { host: LOCAL, port: rest[3 + r]! },
          latencyMs: o.latencyMs,
        }),
    );
    for (const p of proxies) {
      closers.push(() => p.close());
      await p.start();
    }
    const relay = new RendezvousRelay(
      `tcp://${LOCAL}:${store}`,
      new Map(ports.map((port, r) => [`tcp://${LOCAL}:${port}`, proxies[r]!.address])),
    );
    await relay.start(`tcp://${LOCAL}:${relayPort}`);
    closers.push(() => relay.close());
    const workers = ranks.map((r) =>
      procs.start(r, {
        initMethod: r === 0 ? `tcp://${LOCAL}:${store}` : relay.address,
        listenAddress: `tcp://${LOCAL}:${ports[r]}`,
        ...TRAINING,
        ...o.args,
      }),
    );
    // whatever `during` does, wait for the workers first (a failure of it is thrown after)
    const during = o.during?.(workers, proxies).then(
      () => null,
      (e: unknown) => e,
    );
    const es = await exits(workers, 90_000);
    expect(relay.error).toBeNull();
    const failed = await during;
    if (failed) throw failed;
    return { es, proxies, workers };
  }

  it('a. on loopback, the final parameters are the same in every run (recorded as the reference of the specs below)', async () => {
    const params = await referenceParams();
    expect(params.map((p) => p.length)).toEqual([64, 16, 48, 3]);
    expect(params.flat().every(Number.isFinite)).toBe(true);
    const again = await loopbackRun(procs);
    expect(okResult(again[0]!).params).toEqual(params);
    loopbackStepMs.push(...trainerStepMs(again));
    // the trainers learned: each one's last losses are below its first
    for (const e of again.slice(1)) {
      const { losses } = okResult(e);
      expect(losses).toHaveLength(STEPS);
      expect((losses[STEPS - 1]! + losses[STEPS - 2]!) / 2).toBeLessThan(losses[0]!);
    }
    console.log(
      `loopback: trainer step ${median(loopbackStepMs).toFixed(1)} ms median (${Math.min(...loopbackStepMs).toFixed(1)}-${Math.max(...loopbackStepMs).toFixed(1)})`,
    );
  }, 120_000);

  it('b. with 20 ms added each way between workers, training completes with the same final parameters', async () => {
    const params = await referenceParams();
    const { es, proxies } = await proxiedRun({ latencyMs: 20 });
    for (const e of es) okResult(e);
    expect(okResult(es[0]!).params).toEqual(params);
    // every worker was reached through its proxy (the ps by both trainers, a trainer by the ps and itself)
    for (const p of proxies) {
      expect(p.stats.accepted).toBeGreaterThanOrEqual(2);
      expect(p.stats.bytesUp).toBeGreaterThan(0);
      expect(p.stats.bytesDown).toBeGreaterThan(0);
    }
    // a step is at least three round trips to the ps (forward, gradients, optimizer), each 2 x 20 ms longer now
    const steps = trainerStepMs(es);
    expect(Math.min(...steps)).toBeGreaterThanOrEqual(3 * 40);
    console.log(
      `20 ms proxy: trainer step ${median(steps).toFixed(1)} ms median (${Math.min(...steps).toFixed(1)}-${Math.max(...steps).toFixed(1)}); loopback ${median(loopbackStepMs).toFixed(1)} ms`,
    );
  }, 120_000);

  /** The events of the run after `t0`, for a failure message. */
  const story = (es: Exit[], t0: number) =>
    es
      .map(
        (e) =>
          `rank ${e.lines[0]?.rank ?? '?'} exit ${e.code}: ${e.lines
            .filter((l) => l.event !== 'step' && l.event !== 'result' && l.at > t0 - 2000)
            .map((l) => `${JSON.stringify({ ...l, at: undefined })} at ${(l.at - t0).toFixed(0)} ms`)
            .join(', ')}`,
      )
      .join('\n');
  /** Each rank's failure event (the spec fails if a rank has none). */
  const failures = (es: Exit[], why: string) =>
    es.map((e, rank) => {
      const f = e.lines.find((l) => l.event === 'failed');
      expect(f, `rank ${rank} did not fail\n${why}`).toBeDefined();
      return f as Line & { event: 'failed' };
    });

  it('c1. all connections cut while nothing is in flight: ZeroMQ reconnects and training completes with the same final parameters', async () => {
    const params = await referenceParams();
    const before: number[] = [];
    const cut: number[] = [];
    const { es, proxies } = await proxiedRun({
      latencyMs: 20,
      // the ps holds turn 6 back for 5 s: both trainers wait on it with their requests delivered, and
      // the connections are back (within ~0.1 s) before the ps answers (a ROUTER drops answers to a peer not connected)
      args: { pauseAtTurn: 6, pauseMs: 5000 },
      during: async (w, proxies) => {
        await w[0]!.waitFor((l) => l.event === 'paused', 60_000);
        await sleep(300);
        while (proxies.some((p) => p.held > 0)) await sleep(1); // only heartbeats move now
        before.push(...proxies.map((p) => p.stats.accepted));
        cut.push(...proxies.map((p) => p.cut()));
      },
    });
    for (const e of es) okResult(e);
    expect(okResult(es[0]!).params).toEqual(params);
    // every worker's connections were cut (the ps's: one per trainer; a trainer's: the ps's, the other's, its own) and came back
    expect(cut).toEqual([2, 3, 3]);
    proxies.forEach((p, r) => expect(p.stats.accepted - before[r]!).toBeGreaterThanOrEqual(cut[r]!));
  }, 120_000);

  it('c2. a request cut in flight (connections come back at once): the lost call fails with RpcError TIMEOUT after rpcTimeout, and every worker exits', async () => {
    await referenceParams();
    const RPC_TIMEOUT_S = 5;
    let cutAt = 0;
    let acceptedBefore = 0;
    const { es, proxies } = await proxiedRun({
      latencyMs: 20,
      // The ps holds turn 8 (trainer1's step 4) back for 2 s once trainer2 has finished turn 7. The
      // forward cut is the first one after the pause, and by then trainer2's net.done answer has left
      // proxy 0 (its delay line released it 2 s before the turn's answer), so trainer2 waits at the
      // ps for turn 9 with nothing in flight. Cut on the first forward after trainer1's step 3, with
      // no pause, trainer2's net.done answer was sometimes still in proxy 0 at the cut (its turn had
      // just been released) and was lost with it: trainer2 failed with TIMEOUT during 'done' (load 16).
      args: { rpcTimeout: RPC_TIMEOUT_S, trace: 1, pauseAtTurn: 8, pauseMs: 2000 },
      during: async (w, proxies) => {
        await w[0]!.waitFor((l) => l.event === 'paused', 60_000);
        acceptedBefore = proxies[0]!.stats.accepted;
        // no trainer has a turn during the pause, so the next forward request (the call of net.forward,
        // with x and its autograd metadata) is turn 8's, and it is lost with the cut
        const cut = proxies[0]!.cutOnNextData({ minBytes: 1, containing: 'net.forward', direction: 'up' });
        expect(await cut).toBe(2);
        cutAt = performance.now();
      },
    });
    const why = story(es, cutAt);
    expect(
      es.map((e) => e.code),
      why,
    ).toEqual([1, 1, 1]);
    // ZeroMQ reconnected both trainers at once...
    expect(proxies[0]!.stats.accepted - acceptedBefore, why).toBeGreaterThanOrEqual(2);
    // ...but nothing resends the lost request: the call waits out its timeout
    const [ps, ...trainers] = failures(es, why) as [Line & { event: 'failed' }, ...(Line & { event: 'failed' })[]];
    const lost = trainers.find((t) => t.error.during === 'forward')!;
    expect(lost, why).toBeDefined();
    expect(lost.error, why).toEqual({
      name: 'RpcError',
      code: 'TIMEOUT',
      message: `RPC ran for more than set timeout (${RPC_TIMEOUT_S * 1000} ms) and will now be marked with an error`,
      during: 'forward',
    });
    const sent = es[lost.rank]!.lines.filter((l) => l.event === 'phase' && l.phase === 'forward').at(-1)!;
    expect(sent.at, why).toBeLessThanOrEqual(cutAt + 2000); // (its line and the proxy's data race to this process)
    // the error reaches the caller once context() has released its autograd context (the ps answers that cleanup)
    expect(lost.at - sent.at, why).toBeGreaterThanOrEqual(RPC_TIMEOUT_S * 1000 - 100);
    expect(lost.at - sent.at, why).toBeLessThan(RPC_TIMEOUT_S * 1000 + 8000);
    // the trainer that waited for its turn hears from the ps that training was aborted, or, when the ps
    // closed its sockets (shutdown without a barrier) before that answer left, loses the ps
    const waiting = trainers.find((t) => t !== lost)!;
    expect(waiting.error.during, why).toBe('turn');
    if (waiting.error.code === 'REMOTE')
      expect(waiting.error.message, why).toContain(
        `training aborted: trainer${lost.rank} failed: RPC ran for more than set timeout`,
      );
    else {
      expect(waiting.error, why).toMatchObject({ name: 'RpcError', code: 'PEER_DISCONNECTED' });
      expect(waiting.error.message, why).toMatch(/^lost the connection to WorkerInfo\(id=0, name=ps\)/);
    }
    expect(ps.error.message, why).toBe(`training aborted: trainer${lost.rank} failed: ${lost.error.message}`);
    const end = Math.max(...es.map((e) => e.lines.at(-1)!.at));
    expect(end - cutAt, why).toBeLessThan(RPC_TIMEOUT_S * 1000 + 30_000);
    console.log(
      `cut in flight: trainer${lost.rank}'s forward failed with ${lost.error.code} ${(lost.at - sent.at).toFixed(0)} ms after it was sent (rpcTimeout ${RPC_TIMEOUT_S} s); all workers exited ${(end - cutAt).toFixed(0)} ms after the cut`,
    );
  }, 120_000);

  it('c3. every connection cut and refused for 6 s (past three heartbeats): the pending calls fail with RpcError PEER_DISCONNECTED, the ps hears the trainers left (dead), and every worker exits', async () => {
    await referenceParams();
    let cutAt = 0;
    const { es } = await proxiedRun({
      latencyMs: 20,
      during: async (w, proxies) => {
        await w[1]!.waitFor((l) => l.event === 'step' && l.step === 3, 60_000);
        cutAt = performance.now();
        for (const p of proxies) p.cut({ refuseMs: 6000 });
      },
    });
    const why = story(es, cutAt);
    expect(
      es.map((e) => e.code),
      why,
    ).toEqual([1, 1, 1]);
    const [ps, ...trainers] = failures(es, why) as [Line & { event: 'failed' }, ...(Line & { event: 'failed' })[]];
    // both trainers had a call pending at the ps (a turn, or the step under way)
    for (const t of trainers) {
      expect(t.error, why).toMatchObject({ name: 'RpcError', code: 'PEER_DISCONNECTED' });
      expect(t.error.message, why).toMatch(/^lost the connection to WorkerInfo\(id=0, name=ps\)/);
      // the default heartbeat is 1 s: dead after 3 s without a word (2-3 s after the cut), long before the 30 s rpcTimeout
      expect(t.at - cutAt, why).toBeGreaterThanOrEqual(1900);
      expect(t.at - cutAt, why).toBeLessThan(3000 + 7000);
    }
    // the ps saw a trainer leave the group as dead, and stopped waiting for its turn
    const left = es[0]!.lines.find((l) => l.event === 'left') as Line & { event: 'left' };
    expect(left, why).toMatchObject({ worker: expect.stringMatching(/^trainer[12]$/), reason: 'dead' });
    expect(ps.error.message, why).toBe(`training aborted: ${left.worker} left the group (dead) before it finished`);
    expect(ps.at - cutAt, why).toBeGreaterThanOrEqual(1900);
    expect(ps.at - cutAt, why).toBeLessThan(3000 + 7000);
    const end = Math.max(...es.map((e) => e.lines.at(-1)!.at));
    expect(end - cutAt, why).toBeLessThan(30_000);
    console.log(
      `cut + refused 6 s: trainers failed ${trainers.map((t) => (t.at - cutAt).toFixed(0)).join(', ')} ms after the cut with ${trainers[0]!.error.code}; the ps gave up after ${(ps.at - cutAt).toFixed(0)} ms; all exited after ${(end - cutAt).toFixed(0)} ms`,
    );
  }, 120_000);
});
