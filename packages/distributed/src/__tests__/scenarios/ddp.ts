import { createHash } from 'node:crypto';
import { type Tensor, grad, manualSeed, narrow, randn, toTypedArray, noGrad } from '@wiregrad/autograd';
import { BatchNorm1d, Linear, Module, ReLU, Sequential, mseLoss } from '@wiregrad/nn';
import { SGD } from '@wiregrad/nn/optim';
import { DistributedDataParallel, getRank, initProcessGroup } from '@wiregrad/distributed';
import { errorOf } from '@wiregrad/test-helpers';

const B = 4;
const STEPS = 5;
// wide enough for two gradient buckets: [2.bias, 2.weight, 0.bias] fill the 1 MiB first bucket, 0.weight is the second
const mlp = () => new Sequential(new Linear(8, 40_000), new ReLU(), new Linear(40_000, 4));
const digest = (ts: Tensor[]) => {
  const h = createHash('sha256');
  for (const t of ts) h.update(toTypedArray(t));
  return h.digest('hex');
};
const values = (ts: Tensor[]) => ts.map((t) => Array.from(toTypedArray(t)));
/** For each parameter, the index of the first parameter whose gradient has the same storage. */
const storagesOf = (ps: Tensor[]) => ps.map((p) => ps.findIndex((q) => q.grad!.storage === p.grad!.storage));
const maxDiff = (a: Tensor[], b: Tensor[]) => Math.max(...a.map((t, i) => t.sub(b[i]!).abs().max().item()));

/** A module whose `extra` layer only rank 0 uses, and whose `never` layer no rank uses. */
class Branchy extends Module {
  main = new Linear(3, 2);
  extra = new Linear(3, 2);
  never = new Linear(3, 2);
  forward(x: Tensor): Tensor {
    return getRank() === 0 ? this.main.call(x).add(this.extra.call(x)) : this.main.call(x);
  }
}

/** A module whose `once` layer every rank uses in its first forward only. */
class UsedOnce extends Module {
  main = new Linear(3, 2);
  once = new Linear(3, 2);
  first = true;
  forward(x: Tensor): Tensor {
    return this.first ? this.main.call(x).add(this.once.call(x)) : this.main.call(x);
  }
}

/**
 * DDP on 2 ranks, batch B each, against one process on the 2B batch (rank 0 runs it after the
 * DDP steps), plus DDP's contract: ready, backwardAsync, noSync, unused parameters, buffers,
 * stateDict.
 */
export async function run({ rank }: { rank: number }) {
  await initProcessGroup();
  manualSeed(100);
  const X = randn([STEPS, 2 * B, 8]);
  const Y = randn([STEPS, 2 * B, 4]);
  manualSeed(rank === 0 ? 1 : 2); // different initial parameters: ready must make them rank 0's
  const model = mlp();
  const ddp = new DistributedDataParallel(model);
  const out: Record<string, unknown> = {};
  out.beforeReady = await errorOf(() => ddp.forward(X.select(0, 0)));
  await ddp.ready;
  out.initial = digest(model.parameters());
  out.stateDictKeys = Object.keys(ddp.stateDict());
  out.sameParams = ddp.parameters().length === model.parameters().length;
  out.syncBackward = await errorOf(() =>
    mseLoss(ddp.call(narrow(X.select(0, 0), 0, rank * B, B)), narrow(Y.select(0, 0), 0, rank * B, B)).backward(),
  );
  out.gradsAfterSyncBackward = model.parameters().map((p) => p.grad);
  model.zeroGrad();

  const opt = new SGD(ddp.parameters(), { lr: 0.002 });
  for (let s = 0; s < STEPS; s++) {
    opt.zeroGrad();
    const x = narrow(X.select(0, s), 0, rank * B, B);
    const y = narrow(Y.select(0, s), 0, rank * B, B);
    await mseLoss(ddp.call(x), y).backwardAsync();
    opt.step();
  }
  out.trained = digest(model.parameters());
  out.gradStorages = storagesOf(model.parameters());

  // the same training with gradientAsBucketView (Note [Gradients as bucket views]), gradients set to none and zeroed in place
  for (const setToNone of [true, false]) {
    manualSeed(rank === 0 ? 1 : 2);
    const viewModel = mlp();
    const viewDdp = new DistributedDataParallel(viewModel, { gradientAsBucketView: true });
    await viewDdp.ready;
    const viewOpt = new SGD(viewDdp.parameters(), { lr: 0.002 });
    for (let s = 0; s < STEPS; s++) {
      viewOpt.zeroGrad({ setToNone });
      const x = narrow(X.select(0, s), 0, rank * B, B);
      const y = narrow(Y.select(0, s), 0, rank * B, B);
      await mseLoss(viewDdp.call(x), y).backwardAsync();
      viewOpt.step();
    }
    out[setToNone ? 'asViews' : 'asViewsZeroedInPlace'] = {
      trained: digest(viewModel.parameters()),
      gradStorages: storagesOf(viewModel.parameters()),
    };
  }
  if (rank === 0) {
    // one process on the whole 2B batch, from rank 0's initial parameters
    manualSeed(1);
    const single = mlp();
    const sopt = new SGD(single.parameters(), { lr: 0.002 });
    for (let s = 0; s < STEPS; s++) {
      sopt.zeroGrad();
      mseLoss(single.call(X.select(0, s)), Y.select(0, s)).backward();
      sopt.step();
    }
    out.parityMaxDiff = maxDiff(model.parameters(), single.parameters());
  }

  // noSync: a local backward, then a synced one averages the accumulated sums
  opt.zeroGrad();
  const x0 = narrow(X.select(0, 0), 0, rank * B, B);
  const y0 = narrow(Y.select(0, 0), 0, rank * B, B);
  const x1 = narrow(X.select(0, 1), 0, rank * B, B);
  const y1 = narrow(Y.select(0, 1), 0, rank * B, B);
  ddp.noSync(() => mseLoss(ddp.call(x0), y0).backward()); // no communication: a plain backward works
  const local0 = model.parameters().map((p) => p.grad!.clone());
  const local1 = grad(mseLoss(model.call(x1), y1), model.parameters()) as Tensor[];
  await mseLoss(ddp.call(x1), y1).backwardAsync();
  out.noSync = {
    localSum: values(local0.map((g, i) => g.add(local1[i]!))),
    synced: values(model.parameters().map((p) => p.grad!)),
  };

  // unused parameters, with gradients copied back and as bucket views
  for (const gradientAsBucketView of [false, true]) {
    manualSeed(5);
    const branchy = new Branchy();
    const find = new DistributedDataParallel(branchy, { findUnusedParameters: true, gradientAsBucketView });
    await find.ready;
    const bx = randn([2, 3]);
    await find.call(bx).sum().backwardAsync();
    const extraLocal = rank === 0 ? noGrad(() => bx.sum(0)) : null;
    // a parameter no rank uses in the second pass keeps the first pass's gradient
    manualSeed(6);
    const usedOnce = new UsedOnce();
    const onceDdp = new DistributedDataParallel(usedOnce, { findUnusedParameters: true, gradientAsBucketView });
    await onceDdp.ready;
    await onceDdp
      .call(randn([2, 3]))
      .sum()
      .backwardAsync();
    const firstPass = values([usedOnce.once.weight.grad!.clone()]);
    usedOnce.first = false;
    await onceDdp
      .call(randn([2, 3]))
      .sum()
      .backwardAsync();
    out[gradientAsBucketView ? 'unusedAsViews' : 'unused'] = {
      extraWeight: values([branchy.extra.weight.grad!]),
      extraLocal: extraLocal ? values([extraLocal]) : null,
      neverGrad: branchy.never.weight.grad,
      mainBias: values([branchy.main.bias!.grad!]),
      usedOnce: { firstPass, secondPass: values([usedOnce.once.weight.grad!]) },
    };
  }
  manualSeed(5);
  const strict = new DistributedDataParallel(new Branchy());
  await strict.ready;
  out.unfinished = await errorOf(
    strict
      .call(randn([2, 3]))
      .sum()
      .backwardAsync(),
  );

  // buffers: rank 0's running stats reach every rank after a synced backward
  manualSeed(9);
  const bn = new Sequential(new Linear(3, 3), new BatchNorm1d(3));
  const bnDdp = new DistributedDataParallel(bn);
  await bnDdp.ready;
  manualSeed(20 + rank);
  await bnDdp
    .call(randn([6, 3]))
    .sum()
    .backwardAsync();
  out.runningMean = values([bn.buffers()[0]!]);
  return out;
}
