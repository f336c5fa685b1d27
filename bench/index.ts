// `pnpm bench`: every benchmark side by side with its peers, one process, ratios printed.
import { writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { printRows, type Row } from './report.js';

// Node 20 runs relaxed SIMD (the gemm's fused multiply-add, Note [Relaxed SIMD gemm]) only
// behind this flag, Node >= 22 by default: set before any suite makes the wasm runtime, so
// every figure is the build a user on a current Node gets
if (Number(process.versions.node.split('.')[0]) < 22) setFlagsFromString('--experimental-wasm-relaxed-simd');

const suites: [string, () => Promise<{ run(): Promise<Row[] | void> }>][] = [
  ['tensor', () => import('./tensor.bench.js')],
  ['autograd', () => import('./autograd.bench.js')],
  ['conv', () => import('./conv.bench.js')],
  ['pytorch', () => import('./torch.bench.js')],
  ['seq', () => import('./seq.bench.js')],
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
// BENCH_JSON=<file>: every row as JSON too (a spec reads the figures without parsing tables)
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(all));
process.exit(0);
