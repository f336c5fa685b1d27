import { describe, expect, it } from 'vitest';
import { runRanks } from './ranks.js';

type Values = number[][];

describe('DistributedDataParallel on 2 processes', () => {
  it('equals one process on the whole batch, and keeps DDP’s contract', async () => {
    const runs = await runRanks('ddp', 2, { timeoutMs: 90_000 });
    for (const r of runs) expect(r.code, `rank ${r.rank}: ${r.stderr}`).toBe(0);
    const [r0, r1] = runs.map((r) => r.result as Record<string, unknown>) as [
      Record<string, unknown>,
      Record<string, unknown>,
    ];

    expect(r0.beforeReady).toMatchObject({
      name: 'DistributedError',
      code: 'NOT_READY',
      message: expect.stringContaining('await ddp.ready'),
    });
    // ready: every rank starts from rank 0's parameters
    expect(r1.initial).toEqual(r0.initial);
    expect(r0.stateDictKeys).toEqual(['module.0.weight', 'module.0.bias', 'module.2.weight', 'module.2.bias']);
    expect(r0.sameParams).toBe(true);
    // a plain backward() fails on every rank before any gradient reaches the module, and the group goes on
    for (const r of [r0, r1]) {
      expect(r.syncBackward).toMatchObject({
        name: 'DistributedError',
        code: 'NEEDS_BACKWARD_ASYNC',
        message: expect.stringContaining('needs `await loss.backwardAsync()`'),
      });
      expect(r.gradsAfterSyncBackward).toEqual([null, null, null, null]);
    }

    // parity: 2 ranks with B each == 1 process with 2B, after several SGD steps
    expect(r1.trained).toEqual(r0.trained);
    expect(r0.trained).not.toEqual(r0.initial);
    expect(r0.parityMaxDiff).toBeLessThan(1e-5);
    // each gradient its own tensor (parameters: 0.weight, 0.bias, 2.weight, 2.bias)
    expect(r0.gradStorages).toEqual([0, 1, 2, 3]);

    // gradientAsBucketView (Note [Gradients as bucket views]): the very same training, whether the
    // optimizer sets the gradients to none or zeroes them in place, and each gradient a view of its
    // bucket: [2.bias, 2.weight, 0.bias] in the first, 0.weight in the second
    for (const [rank, r] of [r0, r1].entries())
      for (const mode of ['asViews', 'asViewsZeroedInPlace'])
        expect(r[mode], `rank ${rank} ${mode}`).toEqual({
          trained: r0.trained,
          gradStorages: [0, 1, 1, 1],
        });

    // noSync accumulated locally; the synced backward averaged the sums over ranks
    const n0 = r0.noSync as { localSum: Values; synced: Values; syncedDigest: string };
    const n1 = r1.noSync as typeof n0;
    expect(n1.syncedDigest).toBe(n0.syncedDigest);
    n0.synced.forEach((g, i) =>
      g.forEach((v, j) => expect(v).toBeCloseTo((n0.localSum[i]![j]! + n1.localSum[i]![j]!) / 2, 5)),
    );

    // findUnusedParameters: rank 1 never uses `extra`, no rank uses `never`
    const u0 = r0.unused as {
      extraWeight: Values;
      extraLocal: Values;
      neverGrad: unknown;
      mainBias: Values;
      usedOnce: { firstPass: Values; secondPass: Values };
    };
    const u1 = r1.unused as typeof u0;
    expect(u1.extraWeight).toEqual(u0.extraWeight);
    // d(sum(W x + b))/dW = column sums of x, for each output row; averaged with rank 1's zeros
    const colSums = u0.extraLocal[0]!;
    u0.extraWeight[0]!.forEach((v, k) => expect(v).toBeCloseTo(colSums[k % 3]! / 2, 5));
    expect([u0.neverGrad, u1.neverGrad]).toEqual([null, null]);
    expect(u0.mainBias).toEqual([[2, 2]]);
    // a parameter no rank used in a pass keeps its gradient as it was
    for (const u of [u0, u1]) {
      expect(u.usedOnce.secondPass).toEqual(u.usedOnce.firstPass);
      expect(u.usedOnce.firstPass[0]!.some((v) => v !== 0)).toBe(true);
    }
    // the same with each gradient a view of its bucket (Note [Gradients as bucket views])
    expect(r0.unusedAsViews).toEqual(r0.unused);
    expect(r1.unusedAsViews).toEqual(r1.unused);
    for (const r of [r0, r1])
      expect(r.unfinished).toMatchObject({
        code: 'UNFINISHED_REDUCTION',
        message: expect.stringContaining('Expected to have finished reduction in the prior iteration'),
      });

    expect(r1.runningMean).toEqual(r0.runningMean);
  }, 120_000);
});
