import { describe, expect, it } from 'vitest';
import { runRanks } from './ranks.js';
import { valueOf } from './scenarios/collectives.js';

type Plain = { dtype: string; shape: number[]; values: unknown };
const flat = (t: unknown) => (t as Plain).values as number[] | number[][];
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** What every rank holds after an all-reduce of the scenario's values, folded in rank order. */
function folded(n: number, len: number, fold: (a: number, b: number) => number, round = (x: number) => x) {
  return range(len).map((i) =>
    range(n)
      .slice(1)
      .reduce((acc, r) => round(fold(acc, round(valueOf(r, i)))), round(valueOf(0, i))),
  );
}

describe.each([
  [2, 'local pairs'],
  [3, 'local pairs'],
  [4, 'local pairs'],
  [2, 'RPC'],
  [3, 'RPC'],
])('collectives on %i ranks (real processes, chunks over %s)', (n, via) => {
  it('every collective leaves the same results on every rank as torch.distributed', async () => {
    const extra = { localPairs: via === 'local pairs' };
    const runs = await runRanks('collectives', n, { timeoutMs: 90_000, extra });
    for (const r of runs) expect(r.code, `rank ${r.rank}: ${r.stderr}`).toBe(0);
    const results = runs.map((r) => r.result as Record<string, unknown>);
    const chunk = (xs: number[]) => [xs.slice(0, 3), xs.slice(3, 6)];
    for (const [rank, out] of results.entries()) {
      const ops = out.ops as Record<string, Plain>;
      expect(flat(ops.SUM)).toEqual(chunk(folded(n, 6, (a, b) => a + b)));
      expect(flat(ops.AVG)).toEqual(chunk(folded(n, 6, (a, b) => a + b).map((x) => x / n)));
      expect(flat(ops.PRODUCT)).toEqual(chunk(folded(n, 6, (a, b) => a * b)));
      expect(flat(ops.MIN)).toEqual(chunk(folded(n, 6, Math.min)));
      expect(flat(ops.MAX)).toEqual(chunk(folded(n, 6, Math.max)));
      expect(flat(out.f32)).toEqual(folded(n, 5, (a, b) => a + b, Math.fround));
      const prod = (f: (r: number) => number) => range(n).reduce((acc, r) => Math.imul(acc, f(r)), 1);
      expect(flat(out.i32)).toEqual([prod((r) => r + 1), prod((r) => -(r + 2)), prod((r) => 7 * r)]);

      expect(out.bigOverRpc).toBe(via === 'RPC');
      const big = out.big as { bits: string; head: number[]; sample: number };
      expect(big.bits).toBe((results[0]!.big as { bits: string }).bits);
      const sumSin = (i: number) => range(n).reduce((a, r) => a + Math.sin(i * 0.001 + r), 0);
      big.head.forEach((v, i) => expect(v).toBeCloseTo(sumSin(i), 5));
      expect(big.sample).toBeCloseTo(sumSin(777_777), 5);
      const mean = (i: number) => range(n).reduce((a, r) => a + r * 1000 + i, 0) / n;
      expect(out.bigAvg).toEqual({ first: mean(0), last: mean(69_999) });

      const view = out.view as { base: Plain; contiguous: boolean };
      expect(view.contiguous).toBe(false);
      expect(view.base.values).toEqual(chunk(folded(n, 6, (a, b) => a + b)));

      expect(flat(out.broadcast)).toEqual([[1.5, 2.5]]);
      expect((out.allGather as Plain[]).map(flat)).toEqual(range(n).map((r) => [r, r * 10]));
      expect(flat(out.reduceScatter)).toEqual([
        range(n).reduce((a, r) => a + r + rank, 0),
        range(n).reduce((a, r) => a + r * rank, 0),
      ]);
      expect(flat(out.reduce)).toEqual(rank === 1 ? [n, 2] : [rank + 1, 2]);
      expect(out.gather === null ? null : (out.gather as Plain[]).map(flat)).toEqual(
        rank === 0 ? range(n).map((r) => [r * 2]) : null,
      );
      expect(flat(out.scatter)).toEqual([rank, -rank || 0]); // JSON has no -0
      const from = (rank - 1 + n) % n;
      expect(flat(out.p2p)).toEqual([from, from, from]);

      expect(out.workValue).toBe(true);
      const a = out.async as { x: Plain; y: Plain; completed: boolean[] };
      expect([flat(a.x), flat(a.y), a.completed]).toEqual([[(n * (n - 1)) / 2], [10 * (n - 1)], [true, true]]);

      expect(out.mismatch).toMatchObject({
        name: 'DistributedError',
        code: 'MISMATCH',
        message: expect.stringMatching(/shape \[2\].*shape \[3\]|shape \[3\].*shape \[2\]/),
      });
      expect(out.opMismatch).toMatchObject({ code: 'MISMATCH', message: expect.stringMatching(/op (MIN|SUM)/) });
      expect(flat(out.after)).toEqual([n]);
      if (rank < 2) {
        expect(flat(out.subgroup)).toEqual([3]);
        expect(out.subgroupRank).toBe(rank);
      } else {
        expect(out.subgroup).toMatchObject({ code: 'NOT_A_MEMBER' });
        expect(out.subgroupRank).toBe(-1);
      }
    }
  }, 120_000);
});
