import { noGrad, type Tensor } from '@wiregrad/autograd';
import { crossEntropy } from '@wiregrad/nn';
import { SGD } from '@wiregrad/nn/optim';
import { RRef, getWorkerInfos, onWorkerJoin, onWorkerLeave, register, rpcSync } from '@wiregrad/rpc';
import { DistributedOptimizer, backward, context } from '@wiregrad/dist-autograd';
import type { DemoConfig } from '../cli.js';
import { accuracy, loadIris } from '../data/iris.js';
import { reportTrainerResult, trainEpochs } from './irisTrainer.js';
import { irisForward, irisModel } from './irisMlp.js';

let finishedTrainers = 0;

/**
 * Note [Parameter server over dist-autograd]
 * `pnpm demo ps --update dist`: the parameter server of PyTorch's RPC tutorial, where the model
 * runs on the server. Trainers never wait for each other (asynchronous, as in Hogwild!-style
 * training): each forward runs on the server against a snapshot of the
 * parameters taken when it starts (`p.clone()`: the graph saves the snapshots, never the
 * parameters), so the optimizer may update the parameters in place at any time without
 * invalidating another trainer's pending backward (PyTorch's in-place version check would
 * rightly fail it otherwise). The gradient still flows through the clone to the parameter's
 * AccumulateGrad, into the trainer's dist-autograd context, and DistributedOptimizer.step
 * applies it; steps of different trainers are serialised per server by its optimizer lock.
 * A gradient may be a few steps stale, which SGD tolerates; nothing is held between RPCs,
 * so a trainer that dies mid-step leaves nothing locked (Note [A worker that left] drops its
 * contexts), and a trainer that joins just starts stepping.
 */
function forwardOnSnapshot(x: Tensor): Tensor {
  return irisForward(
    irisModel()
      .parameters()
      .map((p) => p.clone()),
    x,
  );
}

/** The parameter server's side: it owns the model; trainers call these by name. */
register('ps.init', (seed: number) =>
  irisModel(seed)
    .parameters()
    .map((p) => new RRef(p)),
);
register('ps.forward', (x: Tensor) => forwardOnSnapshot(x));
register('ps.predict', (x: Tensor) => noGrad(() => irisModel().forward(x)));
register('ps.trainerDone', () => ++finishedTrainers);

/** The server says when the group changes (Note [Membership]): training goes on with whoever is there. */
export function watchTrainers(): void {
  const trainers = () => getWorkerInfos().filter((w) => w.name !== 'ps').length;
  onWorkerLeave((w, reason) => {
    if (w.name === 'ps') return;
    const why = reason === 'dead' ? 'died (no heartbeat)' : 'left';
    console.log(`[ps] ${w.name} ${why}; training continues with ${trainers()} trainer${trainers() === 1 ? '' : 's'}`);
  });
  onWorkerJoin((w) => console.log(`[ps] ${w.name} joined (id ${w.id}); ${trainers()} trainers now`));
}

/** A trainer: its half of Iris, forward through the server, distributed backward, DistributedOptimizer. */
export async function trainer(c: DemoConfig, rank: number): Promise<void> {
  const data = loadIris(c.seed, c.workers - 1);
  const params = await rpcSync<RRef<Tensor>[]>('ps', 'ps.init', [c.seed]);
  const opt = new DistributedOptimizer(SGD, params, { lr: c.lr, momentum: 0.9 });
  const heldOut = async () => accuracy(await rpcSync<Tensor>('ps', 'ps.predict', [data.test.x]), data.test.y);
  const totals = await trainEpochs(
    c,
    rank,
    data.train[rank - 1]!,
    (b) =>
      context(async (id) => {
        const logits = await rpcSync<Tensor>('ps', 'ps.forward', [b.x]);
        const loss = crossEntropy(logits, b.y);
        await backward(id, [loss]);
        await opt.step(id);
        return { loss: loss.item(), acc: accuracy(logits, b.y) };
      }),
    heldOut,
  );
  await rpcSync('ps', 'ps.trainerDone');
  const testAcc = await heldOut();
  await Promise.all(params.map((p) => p.release()));
  await reportTrainerResult(rank, data, testAcc, totals);
}
