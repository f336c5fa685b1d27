import { afterEach, describe, expect, it } from 'vitest';
import { TcpProxy, freePorts } from '@wiregrad/test-helpers';
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
   * worker's proxy: each worker advertises its proxy's address (backendOptions.advertisedAddress).
   * The rendezvous goes direct.
   */
  async function proxiedRun(o: {
    latencyMs: number;
    args?: Record<string, number>;
    during?: (w: WorkerProcess[], proxies: TcpProxy[]) => Promise<void>;
  }) {
    const ranks = [0, 1, 2];
    // every port picked at once, so none of them is picked twice: the store, the workers, their proxies
    // (below the kernel's ephemeral range: the workers bind theirs seconds later, once their processes run)
    const [store, ...rest] = await freePorts(7);
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
    const workers = ranks.map((r) =>
      procs.start(r, {
        initMethod: `tcp://${LOCAL}:${store}`,
        listenAddress: `tcp://${LOCAL}:${ports[r]}`,
        advertisedAddress: proxies[r]!.address,
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
      // the ps holds turn 6 back for 2.5 s: both trainers wait on it with their requests delivered, and
      // the connections are back (within ~0.1 s) before the ps answers (a ROUTER drops answers to a peer not connected)
      args: { pauseAtTurn: 6, pauseMs: 2500 },
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
    // every worker's connections were cut (each worker's proxy carries the other two's and its own self-connection) and came back
    expect(cut).toEqual([3, 3, 3]);
    proxies.forEach((p, r) => expect(p.stats.accepted - before[r]!).toBeGreaterThanOrEqual(cut[r]!));
  }, 120_000);

  it('c2. a request cut in flight (connections come back at once): it is sent again (Note [Exactly-once calls]) and training completes with the same final parameters', async () => {
    const params = await referenceParams();
    let cutAt = 0;
    let acceptedBefore = 0;
    const { es, proxies } = await proxiedRun({
      latencyMs: 20,
      // The ps holds turn 8 (trainer1's step 4) back for 2 s; the next forward request after the
      // pause (turn 8's call of net.forward, with x and its autograd metadata) is lost with the cut.
      // insecure: the cut finds the request by its plaintext (CURVE would hide it). Heartbeats every 2 s:
      // liveness is c3's subject, not this one's; at the default 1 s, a run of the test command beside 2
      // busy loops (this spec took 15 s, twice its usual) had the ps hear nothing from trainer2 for 3 s
      // and abort the training. The lost request still goes again after one interval (2 s) unanswered.
      args: { rpcTimeout: 30, pauseAtTurn: 8, pauseMs: 2000, insecure: 1, heartbeatMs: 2000 },
      during: async (w, proxies) => {
        await w[0]!.waitFor((l) => l.event === 'paused', 60_000);
        acceptedBefore = proxies[0]!.stats.accepted;
        const cut = proxies[0]!.cutOnNextData({ minBytes: 1, containing: 'net.forward', direction: 'up' });
        expect(await cut).toBe(3); // both trainers' connections to the ps, and the ps's own
        cutAt = performance.now();
      },
    });
    const why = story(es, cutAt);
    for (const e of es) okResult(e);
    // ZeroMQ reconnected both trainers, the lost request went again, and every step was applied once
    expect(proxies[0]!.stats.accepted - acceptedBefore, why).toBeGreaterThanOrEqual(2);
    expect(okResult(es[0]!).params, why).toEqual(params);
    const end = Math.max(...es.map((e) => e.lines.at(-1)!.at));
    console.log(`cut in flight: training completed ${(end - cutAt).toFixed(0)} ms after the cut, parameters identical`);
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
