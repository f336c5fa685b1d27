// One worker of the parameter-server training (psTraining.ts) as a process of its own:
//   node --conditions=source --import tsx psWorker.ts --rank 0 --initMethod tcp://10.0.0.1:29500 \
//        [--listenAddress tcp://10.0.0.1:29501] [--advertisedAddress tcp://10.0.0.9:39501] [--steps 10] [--seed 0] [--rpcTimeout 30] \
//        [--pauseAtTurn N --pauseMs MS] [--trace 1] [--deadlineMs 120000]
// Prints one JSON object per line: events as they happen, then {"event":"result",...} (the
// ps's result holds the final parameters). Exit status 0 on success, 1 on a failed training,
// 3 past the deadline; it never outlives its deadline.
import { maybeRpcState, shutdown } from '@wiregrad/rpc/internal';
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

async function exit(code: number): Promise<never> {
  // never exit with open sockets (zeromq aborts the process)
  if (maybeRpcState()) await shutdown({ graceful: false }).catch(() => {});
  process.exit(code);
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

const options: TrainingOptions = {
  rank: num('rank') ?? Number.NaN,
  initMethod: args.get('initMethod') ?? 'env://',
  listenAddress: args.get('listenAddress'),
  advertisedAddress: args.get('advertisedAddress'),
  steps: num('steps'),
  seed: num('seed'),
  rpcTimeout: num('rpcTimeout'),
  pauseAtTurn: num('pauseAtTurn'),
  pauseMs: num('pauseMs'),
  trace: args.get('trace') === '1',
  onEvent: print,
};
const result = await train(options);
print({ event: 'result', ...result });
clearTimeout(deadline);
await exit(result.ok ? 0 : 1);
