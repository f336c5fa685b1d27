// @wiregrad/rpc vs a raw ZeroMQ DEALER/ROUTER echo, both against callee processes (what users run), then
// callee threads of this process beside them.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { rand, tensor, type Tensor } from '@wiregrad/autograd';
import { backward, context, getGradients } from '@wiregrad/dist-autograd';
import { getRpcStats, initRpc, rpcAsync, rpcSync, shutdown } from '@wiregrad/rpc/internal';
import { freePort } from '@wiregrad/test-helpers';
import { rawDealer, rawIpcDirectory } from './rawZeromq.js';
import { compare, interleavedMediansAsync, printRows, type Row, timed } from './report.js';
import { torchRpcTimes } from './torchRpcPeer.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Note [Rounds are cpu-bound]
 * With callee threads, caller, callees and their ZeroMQ I/O threads are threads of this one
 * process, so the process's cpu time per call is what a call costs the machine on both ends
 * (with callee processes it is the caller's share only), and the bench prints it beside the
 * wall time. On a machine with fewer cores than threads the two are about equal: the threads
 * take turns, and a round gets faster only by doing less work (figures: docs/measurements.md).
 */
async function roundTrips(n: number, call: () => Promise<unknown>): Promise<{ ms: number; cpuUs: number }> {
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  return { ms: median(times), cpuUs: (cpu.user + cpu.system) / n };
}

/** Milliseconds per call with `inFlight` calls outstanding for `total` calls. */
async function inFlightMs(total: number, inFlight: number, call: () => Promise<unknown>): Promise<number> {
  let started = 0;
  const t0 = performance.now();
  const lane = async () => {
    while (started < total) {
      started++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return (performance.now() - t0) / total;
}

/**
 * `inFlightMs` after `total / 4` untimed calls made the same way: like the round trips' 200
 * warm-up calls, these let V8 compile the concurrent path (batches, queues) before timing;
 * raw zeromq and rpc get the same treatment.
 */
async function throughput(total: number, inFlight: number, call: () => Promise<unknown>): Promise<number> {
  await inFlightMs(total / 4, inFlight, call);
  return inFlightMs(total, inFlight, call);
}

/** One distributed round (forward through `fn` on the callee, distributed backward, the gradient, leaving the context). */
function distRound(fn: string, x: Tensor, w: Tensor): Promise<unknown> {
  return context(async (id) => {
    const y = await rpcSync<Tensor>(1, fn, [x, w]);
    await backward(id, [y.sum()]);
    return getGradients(id).get(x);
  });
}

/**
 * Note [A round's floor]
 * A distributed round is two round trips (the forward call; the gradients and their answer),
 * so two bare rpcSync calls of nothing inside a context, with no tensor and no graph, are what
 * any round costs on this machine before the first byte of autograd: printed beside the round
 * as a multiple of the raw zeromq round trip, the part of a round that is messaging, not work.
 */
function bareRound(): Promise<unknown> {
  return context(async () => {
    await rpcSync(1, 'echo', [1]);
    await rpcSync(1, 'echo', [1]);
  });
}

type Callees = 'processes' | 'threads';

/**
 * Starts callee ranks 1 and 2 (rpcCallee.ts) as processes or as threads of this one, rank 1
 * with a raw zeromq echo bound at every address in `rawAddresses`; `ipc` is the group's
 * backendOptions.ipc (Note [Same-machine peers over Unix sockets]). Resolves with a wait for
 * their exit once they are ready.
 */
async function startCallees(
  how: Callees,
  initMethod: string,
  rawAddresses: string[],
  ipc = true,
): Promise<() => Promise<void>> {
  const data = (rank: number) => ({ initMethod, rawAddresses: rank === 1 ? rawAddresses : [], rank, ipc });
  const started = [1, 2].map((rank) => {
    if (how === 'threads') {
      const w = new Worker(new URL('./rpcWorker.mjs', import.meta.url), {
        execArgv: ['--conditions=source'],
        workerData: data(rank),
      });
      return { ready: new Promise((r) => w.once('message', r)), exited: new Promise((r) => w.once('exit', r)) };
    }
    const p = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', here('./rpcCallee.ts')], {
      env: { ...process.env, RPC_CALLEE: JSON.stringify(data(rank)) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ready = new Promise((r) =>
      p.stdout.setEncoding('utf8').on('data', (d: string) => d.includes('ready') && r(d)),
    );
    return { ready, exited: new Promise((r) => p.once('exit', r)) };
  });
  await initRpc('caller', { rank: 0, worldSize: 3, backendOptions: { initMethod, rpcTimeout: 60, ipc } });
  await Promise.all(started.map((c) => c.ready));
  return () => Promise.all(started.map((c) => c.exited)).then(() => {});
}

const here = (p: string) => new URL(p, import.meta.url).pathname;

export async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const how of ['processes', 'threads'] as const) rows.push(...(await runWith(how)));
  rows.push(...(await overTcp(rows)));
  rows.push(await echoWithOldSpace());
  return rows;
}

/** Old space Node starts with in echoWithOldSpace (Note [Large messages and the GC] in @wiregrad/rpc). */
const OLD_SPACE_MB = 64;

/**
 * The 16 MiB echo again, between a caller and a callee process of their own (rpcEcho.ts), both
 * started with --initial-old-space-size: what Note [Large messages and the GC] advises for
 * processes that receive tensors of 16 MB or more. The raw echo runs in the same processes.
 */
async function echoWithOldSpace(): Promise<Row> {
  console.log(`\n## 16 MiB echo, processes started with --initial-old-space-size=${OLD_SPACE_MB}`);
  const child = spawn(
    process.execPath,
    [`--initial-old-space-size=${OLD_SPACE_MB}`, '--conditions=source', '--import', 'tsx', here('./rpcEcho.ts')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`bench/rpcEcho.ts exited with ${String(code)}`);
  const { raw, ours } = JSON.parse(out.trim().split('\n').at(-1)!) as { raw: number; ours: number };
  console.log(
    `  ours ${ours.toFixed(1)} ms, raw zeromq ${raw.toFixed(1)} ms (ratio ${(raw / ours).toFixed(2)}, target >= 0.8)`,
  );
  return compare(
    `16 MiB f32 tensor echo (median), callee processes, --initial-old-space-size=${OLD_SPACE_MB}`,
    ['rpcSync', ours],
    ['raw zeromq', raw],
    0.8,
  );
}

/**
 * The agent with `ipc: false`, callees as processes: peers on this machine then talk as peers
 * on others do, over TCP with CURVE (Note [Same-machine peers over Unix sockets]). Its tiny
 * round trip, 16 MiB echo and one-hop round, beside raw zeromq over TCP loopback, and against
 * the same over Unix sockets (`ipcRows`: runWith's rows for processes).
 */
async function overTcp(ipcRows: readonly Row[]): Promise<Row[]> {
  console.log('\n## rpc over TCP loopback (backendOptions.ipc false), callees as processes');
  const initMethod = `tcp://127.0.0.1:${await freePort()}`;
  const rawAddress = `tcp://127.0.0.1:${await freePort()}`;
  const calleesExited = await startCallees('processes', initMethod, [rawAddress], false);
  const { call: rawCall, close } = rawDealer(rawAddress);
  const x = rand([16], { requiresGrad: true });
  const w = rand([16]);
  const t = tensor(new Float32Array(4 * 1024 * 1024));
  for (let i = 0; i < 3000; i++) await rawCall(['x']);
  for (let i = 0; i < 3000; i++) await rpcSync(1, 'echo', [1]);
  for (let i = 0; i < 3000; i++) await distRound('affine', x, w);
  const tcp = await interleavedMediansAsync(
    {
      raw: timed(() => rawCall(['x'])),
      ours: timed(() => rpcSync(1, 'echo', [1])),
      round: timed(() => distRound('affine', x, w)),
    },
    2000,
  );
  // the agent's 16 MiB echo alone: over TCP its frames are CURVE-encrypted, a raw echo's are
  // not (Note [Raw zeromq on the agent's transport])
  const big = await interleavedMediansAsync({ ours: timed(() => rpcSync(1, 'echo', [t])) }, 20);
  close();
  await shutdown({ timeout: 30 });
  await calleesExited();
  console.log(
    `  over TCP: rpcSync ${(tcp.ours * 1000).toFixed(0)} us, raw zeromq ${(tcp.raw * 1000).toFixed(0)} us; one-hop round ${tcp.round.toFixed(3)} ms = ${(tcp.round / tcp.raw).toFixed(1)}x raw zeromq's round trip over TCP; 16 MiB echo ${big.ours.toFixed(1)} ms`,
  );
  const ipc = (name: string) => ipcRows.find((r) => r.case === `${name}, callee processes`)?.oursMs ?? NaN;
  const rows = [
    compare(
      'tiny call round trip, ipc (ours) vs TCP',
      ['ipc', ipc('tiny call round trip (median)')],
      ['TCP', tcp.ours],
      0,
    ),
    compare('16 MiB echo, ipc (ours) vs TCP', ['ipc', ipc('16 MiB f32 tensor echo (median)')], ['TCP', big.ours], 0),
    compare(
      'one-hop round, ipc (ours) vs TCP',
      ['ipc', ipc('distributed round, one hop (median)')],
      ['TCP', tcp.round],
      0,
    ),
  ];
  printRows('rpc between processes: Unix socket vs TCP loopback (peer/ours > 1: ipc wins)', rows);
  return rows;
}

async function runWith(how: Callees): Promise<Row[]> {
  console.log(`\n## rpc, callees as ${how === 'processes' ? 'processes (what users run)' : 'threads of this process'}`);
  const initMethod = `tcp://127.0.0.1:${await freePort()}`;
  const rawAddress = `tcp://127.0.0.1:${await freePort()}`;
  const rawIpcDir = rawIpcDirectory();
  const rawIpc = `ipc://${join(rawIpcDir, 'raw.sock')}`;
  const calleesExited = await startCallees(how, initMethod, [rawAddress, rawIpc]);
  // Note [Raw zeromq on the agent's transport]
  // Callees on this machine take calls over a Unix socket, without CURVE (Note [Same-machine
  // peers over Unix sockets]), so the raw echo that rounds are compared with runs over one too;
  // raw zeromq over TCP loopback is printed beside it, and overTcp() times the agent over TCP,
  // where it encrypts with CURVE as between machines
  const { call: rawCall, close: closeRaw } = rawDealer(rawIpc);
  const { call: rawTcpCall, close: closeRawTcp } = rawDealer(rawAddress);

  const rows: Row[] = [];
  // Note [Steady-state rounds]
  // V8 needs thousands of calls before the whole rpc and engine path runs optimised code; a
  // training loop spends its life there, so that is what is timed, for raw zeromq as for ours
  for (let i = 0; i < 3000; i++) await rawCall(['x']);
  for (let i = 0; i < 3000; i++) await rawTcpCall(['x']);
  for (let i = 0; i < 3000; i++) await rpcSync(1, 'echo', [1]);
  // raw and ours run in alternating blocks, so both see the same machine (Note [Timed blocks])
  const {
    raw: rawRt,
    rawTcp: rawTcpRt,
    ours: oursRt,
  } = await interleavedMediansAsync(
    {
      raw: timed(() => rawCall(['x'])),
      rawTcp: timed(() => rawTcpCall(['x'])),
      ours: timed(() => rpcSync(1, 'echo', [1])),
    },
    2000,
  );
  rows.push(compare('tiny call round trip (median)', ['rpcSync', oursRt], ['raw zeromq', rawRt], 1 / 1.3));

  const rawTp = await throughput(20000, 64, () => rawCall(['x']));
  const oursTp = await throughput(20000, 64, () => rpcAsync(1, 'echo', [1]).wait());
  rows.push(compare('64 calls in flight (ms per call)', ['rpcAsync', oursTp], ['raw zeromq', rawTp], 1));
  console.log(
    `  64 in flight: ours ${(1000 / oursTp).toFixed(0)} calls/s, raw ${(1000 / rawTp).toFixed(0)} calls/s (ratio ${(rawTp / oursTp).toFixed(2)}, target >= 1.0)`,
  );

  const big = new Float32Array(4 * 1024 * 1024);
  const t = tensor(big);
  const bytes = new Uint8Array(big.buffer);
  // A head frame before 16 MiB: every rpc message is a head frame then its tensor frames (Note
  // [Message framing] in @wiregrad/rpc), while a raw echo sends one frame, and raw zeromq.js
  // itself is slower with a small frame in front of a large one (docs/measurements.md). So the
  // 16 MiB echo also times raw zeromq with a 60-byte head frame in front: the like-for-like floor
  // for our message layout.
  const head = 'h'.repeat(60);
  const {
    raw: rawBig,
    rawTcp: rawTcpBig,
    rawWithHead: rawHeadBig,
    ours: oursBig,
  } = await interleavedMediansAsync(
    {
      raw: timed(() => rawCall([bytes])),
      rawTcp: timed(() => rawTcpCall([bytes])),
      rawWithHead: timed(() => rawCall([head, bytes])),
      ours: timed(() => rpcSync(1, 'echo', [t])),
    },
    20,
  );
  rows.push(compare('16 MiB f32 tensor echo (median)', ['rpcSync', oursBig], ['raw zeromq', rawBig], 0.8));
  const bytesPerSecond = (ms: number) => ((2 * big.byteLength) / ms) * 1000;
  console.log(
    `  16 MiB echo (both ways): ours ${(bytesPerSecond(oursBig) / 1e6).toFixed(0)} MB/s, raw ${(bytesPerSecond(rawBig) / 1e6).toFixed(0)} MB/s (ratio ${(rawBig / oursBig).toFixed(2)}, target >= 0.8); raw zeromq sending a 60-byte head frame before the 16 MiB, as every rpc message has one: ${(bytesPerSecond(rawHeadBig) / 1e6).toFixed(0)} MB/s (ours/that ${(rawHeadBig / oursBig).toFixed(2)}); raw zeromq over TCP loopback ${(bytesPerSecond(rawTcpBig) / 1e6).toFixed(0)} MB/s`,
  );
  const rawCpu = await roundTrips(2000, () => rawCall(['x']));
  console.log(
    `  round trip: ours ${(oursRt * 1000).toFixed(0)} us, raw ${(rawRt * 1000).toFixed(0)} us (ours/raw ${(oursRt / rawRt).toFixed(2)}, target <= 1.3; raw over TCP loopback ${(rawTcpRt * 1000).toFixed(0)} us); a raw round trip on its own: ${(rawCpu.ms * 1000).toFixed(0)} us, ${rawCpu.cpuUs.toFixed(0)} us of process cpu (Note [Rounds are cpu-bound])`,
  );

  // distributed rounds: forward, distributed backward, getGradients, leaving the context
  console.log('\n## dist-autograd');
  const x = rand([16], { requiresGrad: true });
  const w = rand([16]);
  const xBig = rand([4 * 1024 * 1024], { requiresGrad: true });
  const wBig = rand([4 * 1024 * 1024]);
  const rounds: [string, number, () => Promise<unknown>][] = [
    ['one hop', 2000, () => distRound('affine', x, w)],
    // what any round costs before autograd: see Note [A round's floor]
    ['floor: two bare rpcSync calls in a context (no tensor, no autograd)', 2000, bareRound],
    ['two hops (a UDF on callee calls callee2)', 1000, () => distRound('hop', x, w)],
    ['one hop, 16 MiB tensors', 10, () => distRound('affine', xBig, wBig)],
  ];
  let oneHopMs = NaN;
  for (const [name, n, round] of rounds) {
    // See Note [Steady-state rounds]: with 500 warm-up rounds a one-hop round measured 1.25 ms, with 2000 0.73 ms (load 7)
    for (let i = 0; i < Math.max(3, 1.5 * n); i++) await round();
    const sent0 = getRpcStats().messagesSent;
    const { ms: roundMs, cpuUs } = await roundTrips(n, round);
    const messages = (getRpcStats().messagesSent - sent0) / n;
    console.log(
      `  ${name}: ${(1000 / roundMs).toFixed(0)} rounds/s, ${roundMs.toFixed(3)} ms each (median) = ${(roundMs / rawRt).toFixed(1)}x raw zeromq's round trip, ${(roundMs / oursRt).toFixed(1)}x rpcSync's; the caller sends ${messages.toFixed(1)} messages per round; ${cpuUs.toFixed(0)} us of process cpu per round (Note [Rounds are cpu-bound])`,
    );
    if (name !== 'one hop') continue;
    oneHopMs = roundMs;
    rows.push(
      compare(
        'distributed round, one hop (median)',
        ['rpc round', roundMs],
        ['3x raw zeromq round trip', 3 * rawRt],
        1,
      ),
    );
  }
  console.log('  targets: >= 1000 rounds/s and <= 3x raw zeromq round trip');

  closeRaw();
  closeRawTcp();
  await shutdown({ timeout: 30 });
  await calleesExited();
  rmSync(rawIpcDir, { recursive: true, force: true });

  // PyTorch after ours, in the same run (once, beside the callee processes): a caller and a callee process over TensorPipe
  if (how === 'processes') {
    const torch = await torchRpcTimes(2000);
    if ('skipped' in torch) console.log(`  PyTorch peer skipped: no python here imports torch (${torch.skipped})`);
    else {
      console.log(
        `  PyTorch ${torch.torch} (TensorPipe, two processes): rpc_sync ${(torch.echoMs * 1000).toFixed(0)} us = ${(torch.echoMs / rawRt).toFixed(1)}x raw zeromq's round trip; one-hop round ${(1000 / torch.roundMs).toFixed(0)} rounds/s, ${torch.roundMs.toFixed(3)} ms = ${(torch.roundMs / rawRt).toFixed(1)}x raw zeromq's round trip`,
      );
      rows.push(
        compare('tiny call round trip vs PyTorch (median)', ['rpcSync', oursRt], ['PyTorch rpc_sync', torch.echoMs], 0),
      );
      rows.push(
        compare(
          'distributed round, one hop, vs PyTorch (median)',
          ['rpc round', oneHopMs],
          ['PyTorch', torch.roundMs],
          0,
        ),
      );
    }
  }
  printRows(`rpc (ZeroMQ, callees as ${how})`, rows);
  return rows.map((r) => ({ ...r, case: `${r.case}, callee ${how}` }));
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
