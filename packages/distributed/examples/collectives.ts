import { tensor, zeros } from '@wiregrad/autograd';
import {
  ReduceOp,
  allGather,
  allReduce,
  broadcast,
  getRank,
  getWorldSize,
  initProcessGroup,
  newGroup,
} from '@wiregrad/distributed';

await initProcessGroup();
const t = tensor([getRank() + 1]);
await allReduce(t, { op: ReduceOp.SUM }); // in place: 1 + 2 + ... on every rank
const work = broadcast(t, 0, { asyncOp: true }); // a Work: await work.wait()
await work.wait();
const all = Array.from({ length: getWorldSize() }, () => zeros([1]));
await allGather(all, t);
const pair = await newGroup([0, 1]); // every rank calls it; ranks outside may not use it
if (getRank() < 2) await allReduce(t, { group: pair });
