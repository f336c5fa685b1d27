import { grad, noGrad, type Tensor } from '@wiregrad/autograd';
import { crossEntropy } from '@wiregrad/nn';
import { SGD, lrScheduler } from '@wiregrad/nn/optim';
import { onWorkerLeave, register, rpcSync } from '@wiregrad/rpc';
import type { DemoConfig } from '../cli.js';
import { accuracy, batches, loadIris } from '../data/iris.js';
import { irisForward, irisModel } from './irisMlp.js';
import { reportTrainerResult, trainEpochs } from './irisTrainer.js';

/**
 * Note [Trainers compute, the server updates]
 * `pnpm demo ps` (`--update async`, the default, or `--update batch`): each trainer keeps a copy
 * of the parameters, runs forward and backward on its own batch in its own process, and sends
 * the gradients with one RPC, `ps.update`, which answers with the parameters after the update.
 * A step costs a trainer one round trip and the server one small message in and out plus an
 * optimizer step, so the compute runs on the trainers, in parallel: that is what lets two
 * trainers step more often than one (Note [Steady-state steps/s]). In `--update dist` (Note
 * [Parameter server over dist-autograd]) every forward and backward runs on the server.
 *
 * - async: the server steps with each trainer's gradients as they arrive (asynchronous SGD, as
 *   PyTorch's Hogwild!/parameter-server examples). A trainer's gradients may be a few steps stale,
 *   which SGD tolerates; no update can invalidate another trainer's backward, which ran on its
 *   own copy. Trainers never wait for each other.
 * - batch: PyTorch's batch-update parameter server (the "Batch RPC Processing Using Asynchronous
 *   Executions" tutorial): `ps.update` returns a Promise (async_execution) that the server holds
 *   until every trainer in the group has sent its gradients, then averages them, takes one step
 *   and answers all of them with the same parameters. Synchronous SGD; trainers take turns with
 *   the server, so it scales less than async on few cores.
 *
 * The group is whoever has joined (`ps.join`) and not left: a trainer that finishes says so
 * (`ps.leave`), one that dies is dropped when the server hears of it (onWorkerLeave, Note
 * [Membership]), and either way a batch waiting for it goes ahead with the gradients that did
 * arrive; a trainer that joins late is waited for from its first update on. A step never waits
 * for a trainer that is gone, so a death never hangs the others.
 *
 * The learning rate anneals (cosine, PyTorch's CosineAnnealingLR, stepped with every server
 * step) from --lr down to a hundredth of it (async) or a twentieth (batch) over the steps the
 * run will take, and stays there past them (a trainer that joins late); SGD has a weight decay
 * of 1e-3. At a constant rate the asynchronous, stale gradients keep the parameters moving to
 * the end, so trainers of one run finish at different held-out accuracies; annealed, they agree
 * (the runs that chose the floors: docs/measurements.md).
 */
interface PendingUpdate {
  trainer: string;
  grads: Tensor[];
  answer: (params: Tensor[]) => void;
}

let optimizer: SGD | null = null;
/** irisModel()'s parameters, in order (looked up once: parameters() walks the module tree) */
let params: Tensor[] = [];
let schedule: lrScheduler.CosineAnnealingLR | null = null;
let waitForGroup = false;
const group = new Set<string>();
let pending: PendingUpdate[] = [];

/** The parameters as the trainers get them: copies, so the next step's in-place update cannot reach an answer not yet sent. */
function snapshot(): Tensor[] {
  return params.map((p) => p.detach().clone());
}

/** Steps with the gradients in: at once (async), or once every member's are in or its missing members have gone (batch). */
function stepWhenComplete(): void {
  if (pending.length === 0) return;
  if (waitForGroup) for (const t of group) if (!pending.some((u) => u.trainer === t)) return;
  const updates = pending;
  pending = [];
  noGrad(() => {
    params.forEach((p, i) => {
      // one trainer's gradients are used as they arrived: they are this server's own tensors
      let sum = updates[0]!.grads[i]!;
      for (const u of updates.slice(1)) sum = sum.add(u.grads[i]!);
      p.grad = updates.length === 1 ? sum : sum.div(updates.length);
    });
  });
  optimizer!.step();
  optimizer!.zeroGrad();
  if (schedule!.lastEpoch < schedule!.tMax) schedule!.step();
  const next = snapshot();
  for (const u of updates) u.answer(next);
}

/** The server steps of a whole run: every trainer's batches of every epoch (async), or one step per round of the group (batch). */
function plannedSteps(c: DemoConfig): number {
  const perEpoch = loadIris(c.seed, c.workers - 1).train.map((share) => batches(share, c.batchSize).length);
  return c.epochs * (c.update === 'batch' ? Math.max(...perEpoch) : perEpoch.reduce((a, b) => a + b, 0));
}

/** The server's side (rank 0): the model, the group, and the steps. */
export function serveGradientUpdates(c: DemoConfig): void {
  waitForGroup = c.update === 'batch';
  register('ps.join', (trainer: string) => {
    if (!optimizer) {
      params = irisModel(c.seed).parameters();
      optimizer = new SGD(params, { lr: c.lr, momentum: 0.9, weightDecay: 1e-3 });
      const floor = c.update === 'batch' ? c.lr / 20 : c.lr / 100;
      schedule = new lrScheduler.CosineAnnealingLR(optimizer, plannedSteps(c), { etaMin: floor });
    }
    group.add(trainer);
    return snapshot();
  });
  register(
    'ps.update',
    (trainer: string, grads: Tensor[]) =>
      new Promise<Tensor[]>((answer) => {
        pending.push({ trainer, grads, answer });
        stepWhenComplete();
      }),
  );
  register('ps.leave', (trainer: string) => {
    group.delete(trainer);
    stepWhenComplete();
  });
  onWorkerLeave((w) => {
    group.delete(w.name);
    stepWhenComplete();
  });
}

/** A trainer: its half of Iris, forward and backward here, the gradients to the server, the new parameters back. */
export async function gradientTrainer(c: DemoConfig, rank: number, name: string): Promise<void> {
  const data = loadIris(c.seed, c.workers - 1);
  const track = (ps: Tensor[]) => ps.map((p) => p.requiresGrad_());
  let params = track(await rpcSync<Tensor[]>('ps', 'ps.join', [name]));
  const heldOut = () => noGrad(() => accuracy(irisForward(params, data.test.x), data.test.y));
  const totals = await trainEpochs(
    c,
    rank,
    data.train[rank - 1]!,
    async (b) => {
      const logits = irisForward(params, b.x);
      const loss = crossEntropy(logits, b.y);
      const grads = grad(loss, params) as Tensor[];
      params = track(await rpcSync<Tensor[]>('ps', 'ps.update', [name, grads]));
      return { loss: loss.item(), acc: accuracy(logits, b.y) };
    },
    heldOut,
  );
  await rpcSync('ps', 'ps.leave', [name]);
  await reportTrainerResult(rank, data, heldOut(), totals);
}
