import { createHash } from 'node:crypto';
import { type Tensor, tensor, toTypedArray, transpose, zeros } from '@wiregrad/autograd';
import {
  ReduceOp,
  allGather,
  allReduce,
  barrier,
  broadcast,
  gather,
  getRank,
  getWorldSize,
  initProcessGroup,
  newGroup,
  recv,
  reduce,
  reduceScatter,
  scatter,
  send,
} from '@wiregrad/distributed';
import { getRpcStats } from '@wiregrad/rpc';
import { errorOf } from '@wiregrad/test-helpers';

/** Rank r's i-th value: what the spec recomputes. */
export const valueOf = (r: number, i: number) => (r + 1) * 0.1 + i * 0.37 - 0.5;
const values = (r: number, n: number) => Array.from({ length: n }, (_, i) => valueOf(r, i));
const bits = (t: Tensor) => createHash('sha256').update(toTypedArray(t)).digest('hex');

/** Every collective once, each rank's results returned for the spec to check. */
export async function run({ rank, extra }: { rank: number; extra: { localPairs?: boolean } | null }) {
  await initProcessGroup({ localPairs: extra?.localPairs ?? true });
  const n = getWorldSize();
  const out: Record<string, unknown> = { rank: getRank(), worldSize: n };

  const ops: Record<string, Tensor> = {};
  for (const op of Object.values(ReduceOp)) {
    const t = tensor(values(rank, 6), { dtype: 'float64' }).reshape([2, 3]);
    await allReduce(t, { op });
    ops[op] = t;
  }
  out.ops = ops;
  const f32 = tensor(values(rank, 5), { dtype: 'float32' });
  await allReduce(f32);
  out.f32 = f32;
  const i32 = tensor([rank + 1, -(rank + 2), 7 * rank], { dtype: 'int32' });
  await allReduce(i32, { op: ReduceOp.PRODUCT });
  out.i32 = i32;

  // a large all-reduce (4 MiB): the ring, or with N > 2 all over local pairs the direct one (Note [Direct
  // all-reduce]); bit-identical on every rank
  const big = tensor(
    Float32Array.from({ length: 1 << 20 }, (_, i) => Math.sin(i * 0.001 + rank)),
    { dtype: 'float32' },
  );
  const rpcBytes = getRpcStats().bytesSent;
  await allReduce(big);
  // over local pairs the 4 MB all-reduce leaves RPC alone (Note [Local pairs])
  out.bigOverRpc = getRpcStats().bytesSent - rpcBytes > 1_000_000;
  out.big = { bits: bits(big), head: Array.from(toTypedArray(big).subarray(0, 4)), sample: toTypedArray(big)[777_777] };
  const bigAvg = tensor(
    Float64Array.from({ length: 70_000 }, (_, i) => rank * 1000 + i),
    { dtype: 'float64' },
  );
  await allReduce(bigAvg, { op: ReduceOp.AVG });
  out.bigAvg = { first: toTypedArray(bigAvg)[0], last: toTypedArray(bigAvg)[69_999] };

  // a non-contiguous view: the result lands where it points
  const base = tensor(values(rank, 6), { dtype: 'float64' }).reshape([2, 3]);
  const view = transpose(base, 0, 1);
  await allReduce(view);
  out.view = { base, contiguous: view.isContiguous() };

  const b = rank === n - 1 ? tensor([[1.5, 2.5]], { dtype: 'float32' }) : zeros([1, 2], { dtype: 'float32' });
  await broadcast(b, n - 1);
  out.broadcast = b;

  const gathered = Array.from({ length: n }, () => zeros([2], { dtype: 'int32' }));
  await allGather(gathered, tensor([rank, rank * 10], { dtype: 'int32' }));
  out.allGather = gathered;

  const rs = zeros([2], { dtype: 'float64' });
  await reduceScatter(
    rs,
    Array.from({ length: n }, (_, j) => tensor([rank + j, rank * j], { dtype: 'float64' })),
  );
  out.reduceScatter = rs;

  const red = tensor([rank + 1, 2], { dtype: 'int32' });
  await reduce(red, 1, { op: ReduceOp.MAX });
  out.reduce = red;

  const gatherList = rank === 0 ? Array.from({ length: n }, () => zeros([1], { dtype: 'float32' })) : undefined;
  await gather(tensor([rank * 2], { dtype: 'float32' }), { dst: 0, ...(gatherList ? { gatherList } : {}) });
  out.gather = gatherList ?? null;

  const scattered = zeros([2], { dtype: 'float64' });
  const scatterList =
    rank === 1 ? Array.from({ length: n }, (_, j) => tensor([j, -j], { dtype: 'float64' })) : undefined;
  await scatter(scattered, { src: 1, ...(scatterList ? { scatterList } : {}) });
  out.scatter = scattered;

  await barrier();

  // a ring of point-to-point messages: rank r sends to r+1 and receives from r-1
  const got = zeros([3], { dtype: 'float32' });
  await Promise.all([
    send(tensor([rank, rank, rank], { dtype: 'float32' }), (rank + 1) % n, { tag: 3 }),
    recv(got, (rank - 1 + n) % n, { tag: 3 }),
  ]);
  out.p2p = got;

  // two async collectives in flight at once, waited in reverse order
  const x = tensor([rank], { dtype: 'float64' });
  const y = tensor([10 * rank], { dtype: 'float64' });
  const wx = allReduce(x, { asyncOp: true });
  const wy = allReduce(y, { op: ReduceOp.MAX, asyncOp: true });
  out.workValue = await wy.wait();
  await wx.wait();
  out.async = { x, y, completed: [wx.isCompleted(), wy.isCompleted()] };

  // a mismatched collective: every rank gets the coded error, and the group goes on
  const mismatched = rank === 1 ? zeros([3]) : zeros([2]);
  out.mismatch = await errorOf(allReduce(mismatched));
  out.opMismatch = await errorOf(allReduce(zeros([2]), { op: rank === 0 ? ReduceOp.MIN : ReduceOp.SUM }));
  const after = tensor([1], { dtype: 'int32' });
  await allReduce(after);
  out.after = after;

  // a subgroup of ranks 0 and 1; the others may not use it
  const g = await newGroup([0, 1]);
  const sub = tensor([rank + 1], { dtype: 'int32' });
  out.subgroup = rank < 2 ? (await allReduce(sub, { group: g }), sub) : await errorOf(allReduce(sub, { group: g }));
  out.subgroupRank = getRank(g);
  return out;
}
