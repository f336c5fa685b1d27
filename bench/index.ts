// `pnpm bench`: every benchmark side by side with its peers, one process, ratios printed.
import { printRows, type Row } from './report.js';

const suites: [string, () => Promise<{ run(): Promise<Row[] | void> }>][] = [
  ['tensor', () => import('./tensor.bench.js')],
  ['autograd', () => import('./autograd.bench.js')],
  ['conv', () => import('./conv.bench.js')],
  ['pytorch', () => import('./torch.bench.js')],
  ['simd', () => import('./simd.bench.js')],
  ['memory', () => import('./memory.bench.js')],
  ['rpc', () => import('./rpc.bench.js')],
  ['manyWorkers', () => import('./manyWorkers.bench.js')],
  ['ps', () => import('./ps.bench.js')],
  ['liveness', () => import('./liveness.bench.js')],
  ['gpu', () => import('./gpu.bench.js')],
  ['distributed', () => import('./distributed.bench.js')],
];

const only = process.argv.slice(2);
const all: Row[] = [];
for (const [name, load] of suites) {
  if (only.length > 0 && !only.includes(name)) continue;
  const mod = await load();
  const rows = await mod.run();
  if (rows) all.push(...rows);
}
if (all.length > 0) printRows('summary', all);
process.exit(0);
