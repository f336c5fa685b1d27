import { zeros } from '@wiregrad/autograd';
import { allReduce, barrier, destroyProcessGroup, getRank, initProcessGroup } from '@wiregrad/distributed';
await initProcessGroup();
const bytes = Number(process.env.AR_BYTES ?? 64 << 20);
const t = zeros([bytes / 4]);
await allReduce(t);
await barrier();
const times: number[] = [];
const c0 = process.cpuUsage();
for (let i = 0; i < Number(process.env.AR_ITERS ?? 5); i++) {
  const t0 = performance.now();
  await allReduce(t);
  times.push(performance.now() - t0);
}
const c = process.cpuUsage(c0);
console.log(
  'rank',
  getRank(),
  'cpu ms/op user',
  (c.user / 1000 / times.length).toFixed(1),
  'sys',
  (c.system / 1000 / times.length).toFixed(1),
  bytes,
  'ms',
  times.map((x) => x.toFixed(1)).join(' '),
);
await destroyProcessGroup();
process.exit(0);
