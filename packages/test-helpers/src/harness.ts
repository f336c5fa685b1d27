import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { bundleFixtures, type BundledFixtures } from './bundleFixtures.js';

/** The lowest port the kernel hands out by itself (Linux: ip_local_port_range; elsewhere IANA's 49152). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 0) return low;
  } catch {
    // not Linux
  }
  return 49152;
}

/** The lowest port freePort picks: above the well-known and commonly configured service ports. */
const LOWEST = 10_000;
/** Ports this process has handed out: never twice. */
const handedOut = new Set<number>();

/** Whether a server can listen on `port` of 127.0.0.1 now (nothing else is bound there). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A port the kernel picks (listen on port 0), from its ephemeral range. */
function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A TCP port of 127.0.0.1 that is free now and that this process has not handed out before,
 * for a listener opened later by another thread or process (rank 0's rendezvous store, a
 * worker's listen address): nothing holds the port in between. So it is picked at random
 * below the kernel's ephemeral range, where nothing else on the machine gets a port without
 * asking for that very number. A port the kernel picked (listen on port 0, close, hand it
 * out, as this did before) is one of the ports the kernel gives every other bind to port 0
 * (every RPC agent's listen socket, a spec's proxy) and every outgoing connection: with
 * several suites running at once one of those took it before the store bound it ('rank 0
 * cannot serve the rendezvous at tcp://127.0.0.1:34309: Address already in use', a
 * dist-autograd run beside two rpc runs, load 15). The port after the one returned is below
 * the range too (rpc's reinit scenario meets again on port + 1). Where there is no room below
 * the range, or no free port there, the kernel picks.
 */
export async function freePort(): Promise<number> {
  const highest = ephemeralLow() - 2;
  for (let tries = 0; tries < 50 && highest - LOWEST >= 1000; tries++) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
    if (handedOut.has(port)) continue;
    handedOut.add(port); // before the check: a concurrent call must not pick it meanwhile
    if (await canListen(port)) return port;
    handedOut.delete(port);
  }
  for (;;) {
    const port = await kernelPort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

/** `n` distinct ports, each as freePort picks it. */
export async function freePorts(n: number): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < n; i++) ports.push(await freePort());
  return ports;
}

export interface WorkerSpec {
  /** the URL of a scenario module: it exports `run(ctx: ScenarioContext)` */
  scenario: URL;
  /**
   * the URL of a module exporting `teardown(): Promise<void>`, which each thread awaits before
   * it exits, on success, on error and on its watchdog timeout (an RPC worker closes every
   * socket there: zeromq aborts the process when a thread exits with sockets open)
   */
  teardown?: URL;
  worldSize: number;
  /** ranks to start (default: all) */
  ranks?: number[];
  extra?: unknown;
  timeoutMs?: number;
  initMethod?: string;
}

/**
 * Runs a scenario module on `worldSize` worker_threads, each its own RPC worker on a fresh port,
 * and returns what each rank's `run()` returned. Each thread runs `spec.teardown` before it
 * exits, on success, on error and on its own watchdog timeout.
 */
export async function runWorkers(spec: WorkerSpec): Promise<unknown[]> {
  const initMethod = spec.initMethod ?? `tcp://127.0.0.1:${await freePort()}`;
  const ranks = spec.ranks ?? Array.from({ length: spec.worldSize }, (_, i) => i);
  const bundle = await scenarioBundle(spec.scenario, spec.teardown);
  const runs = ranks.map(
    (rank) =>
      new Promise<unknown>((resolve, reject) => {
        const w = new Worker(bundle.file('worker'), {
          workerData: {
            scenario: String(pathToFileURL(bundle.file('scenario'))),
            teardown: spec.teardown === undefined ? undefined : String(pathToFileURL(bundle.file('teardown'))),
            rank,
            worldSize: spec.worldSize,
            initMethod,
            extra: spec.extra,
            timeoutMs: spec.timeoutMs ?? 20000,
          },
        });
        let result: { ok: boolean; value?: unknown; error?: string } | undefined;
        w.on('message', (m) => (result = m));
        w.on('error', reject);
        w.on('exit', () => {
          if (!result) reject(new Error(`rank ${rank} exited without a result`));
          else if (result.ok) resolve(result.value);
          else reject(new Error(`rank ${rank}: ${result.error}`));
        });
      }),
  );
  return Promise.all(runs);
}

/** Bundles of (scenario, teardown) this process asked for, and those made: removed when it exits (or, where it is ended without its 'exit' event, by the next bundleFixtures). */
const scenarioBundles = new Map<string, Promise<BundledFixtures>>();
const madeBundles: BundledFixtures[] = [];

/**
 * The scenario threads' code, bundled once per scenario and teardown (Note [Bundled fixtures]):
 * the thread's entry, the scenario and its teardown in one build, so they share one copy of the
 * packages they import (the teardown shuts down the agent the scenario started). The bundle lives
 * in @wiregrad/rpc's folder where the scenario's package depends on it: rpc loads zeromq with
 * Node's require, from the bundle's place (Note [zeromq is loaded by Node]).
 */
function scenarioBundle(scenario: URL, teardown: URL | undefined): Promise<BundledFixtures> {
  const key = `${String(scenario)} ${String(teardown)}`;
  let bundle = scenarioBundles.get(key);
  if (!bundle) {
    if (scenarioBundles.size === 0) process.once('exit', removeScenarioBundles);
    bundle = bundleFixtures({
      // first: the bundle's root is the scenario's package's (Note [Bundled fixtures])
      scenario: fileURLToPath(scenario),
      worker: fileURLToPath(new URL('./worker.ts', import.meta.url)),
      ...(teardown === undefined ? {} : { teardown: fileURLToPath(teardown) }),
    }).then((b) => {
      madeBundles.push(b);
      return b;
    });
    scenarioBundles.set(key, bundle);
  }
  return bundle;
}

function removeScenarioBundles(): void {
  for (const b of madeBundles) b.remove();
}
