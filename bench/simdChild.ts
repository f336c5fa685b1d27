// One Node line's cpu kernels for simd.bench.ts: which WebAssembly build runs (relaxed SIMD or
// plain), and a 256 x 256 float32 matmul on one thread, timed in blocks (Note [Timed blocks]).
import { cpuKernelInfo, manualSeed, randn, setNumThreads } from '@wiregrad/tensor';
import { interleavedMedians } from './report.js';

setNumThreads(1);
manualSeed(0);
const a = randn([256, 256]);
const b = randn([256, 256]);
const cpuBefore = process.cpuUsage();
const wallBefore = performance.now();
const { matmul } = interleavedMedians({ matmul: () => a.matmul(b).toTypedArray() }, 60);
const cpu = process.cpuUsage(cpuBefore);
console.log(
  JSON.stringify({
    node: process.version,
    relaxedSimd: cpuKernelInfo().relaxedSimd,
    matmulMs: matmul,
    cpuShare: (cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore),
  }),
);
