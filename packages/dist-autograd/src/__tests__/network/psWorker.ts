// One worker of the parameter-server training (psTraining.ts) as a process of its own:
//   node --conditions=source --import tsx psWorker.ts --rank 0 --initMethod tcp://10.0.0.1:29500 \
//        [--listenAddress tcp://10.0.0.1:29501] [--advertisedAddress tcp://10.0.0.9:39501] [--steps 10] [--seed 0] [--rpcTimeout 30] [--heartbeatMs 1000] \
//        [--pauseAtTurn N --pauseMs MS] [--trace 1] [--insecure 1] [--ipc 0] [--deadlineMs 120000]
//        [--proxyPort P [--resetChance C --proxySeed S] [--partitionAfterMs T --partitionMs MS]]
// With --proxyPort, a TcpProxy in this process (so in its network namespace) listens on that port
// of the listen address's host, forwards to the listen port, and is the address this worker
// advertises: every connection to it crosses the proxy's faults.
// Prints one JSON object per line: events as they happen, then {"event":"result",...} (the
// ps's result holds the final parameters). Exit status 0 on success, 1 on a failed training,
// 3 past the deadline; it never outlives its deadline.
import { maybeRpcState, shutdown } from '@wiregrad/rpc/internal';
import { TcpProxy } from '@wiregrad/test-helpers';
import { train, type TrainingOptions } from './psTraining.js';

const args = new Map<string, string>();
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  if (!argv[i]!.startsWith('--') || argv[i + 1] === undefined)
    throw new Error(`bad argument ${argv[i]}; usage: --name value ...`);
  args.set(argv[i]!.slice(2), argv[i + 1]!);
}
const num = (k: string) => (args.has(k) ? Number(args.get(k)) : undefined);
const print = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);

let proxy: TcpProxy | null = null;

async function exit(code: number): Promise<never> {
  // never exit with open sockets (zeromq aborts the process)
  if (maybeRpcState()) await shutdown({ graceful: false }).catch(() => {});
  await proxy?.close();
  process.exit(code);
}

/** The proxy of --proxyPort in front of `listenAddress` (tcp://host:port), started; its partition scheduled. */
async function startProxy(listenAddress: string, port: number): Promise<TcpProxy> {
  const [, host, target] = /^tcp:\/\/(.+):(\d+)$/.exec(listenAddress)!;
  const p = new TcpProxy({
    target: { host: host!, port: Number(target) },
    listen: { host: host!, port },
    resetChance: num('resetChance') ?? 0,
    seed: num('proxySeed') ?? 1,
  });
  await p.start();
  const after = num('partitionAfterMs');
  if (after !== undefined) setTimeout(() => void p.partition(num('partitionMs') ?? 1000), after).unref();
  return p;
}

const deadline = setTimeout(
  () => {
    print({ event: 'deadline', rank: num('rank') });
    void exit(3);
  },
  num('deadlineMs') ?? 120_000,
);
deadline.unref();
process.on('SIGTERM', () => void exit(143));

const proxyPort = num('proxyPort');
if (proxyPort !== undefined) proxy = await startProxy(args.get('listenAddress')!, proxyPort);

const options: TrainingOptions = {
  rank: num('rank') ?? Number.NaN,
  initMethod: args.get('initMethod') ?? 'env://',
  listenAddress: args.get('listenAddress'),
  advertisedAddress: proxy?.address ?? args.get('advertisedAddress'),
  steps: num('steps'),
  seed: num('seed'),
  rpcTimeout: num('rpcTimeout'),
  heartbeatMs: num('heartbeatMs'),
  pauseAtTurn: num('pauseAtTurn'),
  pauseMs: num('pauseMs'),
  trace: args.get('trace') === '1',
  insecure: args.get('insecure') === '1',
  ipc: args.get('ipc') !== '0',
  onEvent: print,
};
const result = await train(options);
print({ event: 'result', ...result, ...(proxy ? { proxy: proxy.stats } : {}) });
clearTimeout(deadline);
await exit(result.ok ? 0 : 1);
