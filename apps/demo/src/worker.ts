import { gpuInfo, tensor } from '@wiregrad/autograd';
import { type RpcError, initRpc, onWorkerLeave, register, rpcSync, shutdown } from '@wiregrad/rpc';
import '@wiregrad/dist-autograd';
import type { DemoConfig } from './cli.js';
import { LOST_THE_SERVER } from './protocol.js';
import { trainer, watchTrainers } from './examples/parameterServer.js';
import { gradientTrainer, serveGradientUpdates } from './examples/gradientParameterServer.js';
import { mnistTrainer } from './examples/mnistDistributed.js';
import { driver } from './examples/pipeline.js';
import { namesDriver } from './examples/names.js';
import { noticeWhileWaiting } from './rendezvousNotice.js';

let trainersFinished = 0;
let trainersDied = 0;
register('demo.trainerFinished', () => ++trainersFinished);

/** Whether `rank` is the parameter server of a run that has one (ps, mnist). */
function isServer(c: DemoConfig, rank: number): boolean {
  return (c.example === 'ps' || c.example === 'mnist') && rank === 0;
}

/** Role names: the parameter server is "ps"; every other worker is "worker<rank>". */
export function workerName(c: DemoConfig, rank: number): string {
  return isServer(c, rank) ? 'ps' : `worker${rank}`;
}

/** One worker process: rendezvous, its role, a graceful shutdown. */
export async function runWorker(c: DemoConfig): Promise<void> {
  const rank = c.rank!;
  if (c.device === 'gpu') {
    // fail early and clearly (gpu.js missing), and say where the examples train (Note [Accelerated gpu modes])
    tensor([0]).to('gpu');
    const { mode, accelerated } = gpuInfo();
    if (rank === 0)
      console.warn(
        `wiregrad demo: --device gpu: gpu.js runs in ${mode} mode${accelerated ? '' : ', not accelerated (slower than the cpu device)'}; the examples train on the cpu device`,
      );
  }
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    void shutdown({ graceful: false }).finally(() => process.exit(code));
  };
  process.on('SIGTERM', () => stop(143));
  process.on('SIGINT', () => stop(130));
  process.on('disconnect', () => stop(1)); // the launcher is gone: never linger as an orphan
  if (isServer(c, rank)) onWorkerLeave((w, reason) => void (reason === 'dead' && w.name !== 'ps' && trainersDied++));
  if (c.example === 'ps' && rank === 0) {
    watchTrainers();
    if (c.update !== 'dist') serveGradientUpdates(c);
  }
  const backendOptions = { initMethod: c.master!, rpcTimeout: 30, listenAddress: `tcp://${c.host}:0` };
  // a joiner's id comes from the rendezvous store (Note [Membership]); --rank picks its share of the data
  const name = workerName(c, rank);
  const stopNotices = noticeWhileWaiting(c, rank, name);
  try {
    await initRpc(name, c.join ? { backendOptions } : { rank, worldSize: c.workers, backendOptions });
  } finally {
    stopNotices();
  }
  if (c.example === 'ps' && rank > 0) await (c.update === 'dist' ? trainer(c, rank) : gradientTrainer(c, rank, name));
  if (c.example === 'pipeline' && rank === 0) await driver(c);
  if (c.example === 'names' && rank === 0) await namesDriver(c);
  if (c.example === 'mnist' && rank > 0) await mnistTrainer(c, rank);
  if ((c.example === 'ps' || c.example === 'mnist') && rank > 0) await rpcSync('ps', 'demo.trainerFinished');
  // no limit: the server enters the barrier right after the rendezvous and waits there while
  // the trainers train, however long that takes; a trainer that dies leaves it (Note [Membership])
  await shutdown({ timeout: 0 });
  stopping = true; // a normal end: leaving the IPC channel is not the launcher going away
  process.disconnect?.();
  if (isServer(c, rank) && trainersFinished === 0 && trainersDied > 0)
    throw new Error(`every trainer died (${trainersDied}) before finishing: nothing was trained to the end`);
  if (isServer(c, rank) && trainersDied > 0)
    console.log(`[ps] ${trainersFinished} trainers finished; ${trainersDied} died on the way`);
}

/** `pnpm demo worker ...`, by hand or started by the launcher: exit code 0 done, 1 failed (at once: sockets may still be open). */
export async function workerMain(c: DemoConfig): Promise<number> {
  try {
    await runWorker(c);
    return 0;
  } catch (e) {
    console.error(`worker error: ${(e as Error).name}: ${(e as Error).message}`);
    await shutdown({ graceful: false }).catch(() => {});
    const lostServer = !isServer(c, c.rank!) && (e as RpcError).code === 'PEER_DISCONNECTED';
    return process.exit(lostServer && c.example !== 'pipeline' ? LOST_THE_SERVER : 1);
  }
}
