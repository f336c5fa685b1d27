// Run as a child process by threadPool.test.ts with WIREGRAD_POOL_SPIN set: a burst of big adds
// split over the pool (the worker finds most jobs while it spins, or, with 0, after a wake), checked
// against the TypeScript kernels; prints the pool's thread count and whether the bits agree.
import { cpuKernelInfo, randn, setCpuKernels, shutdownThreadPool } from '../../../../index.js';

const a = randn([1 << 20]);
const b = randn([1 << 20]);
let pooled = a;
for (let i = 0; i < 20; i++) pooled = pooled.add(b);
const poolThreads = cpuKernelInfo().poolThreads;
setCpuKernels('typescript');
let plain = a;
for (let i = 0; i < 20; i++) plain = plain.add(b);
const [x, y] = [pooled.toTypedArray(), plain.toTypedArray()];
console.log(JSON.stringify({ poolThreads, same: x.every((v, i) => Object.is(v, y[i])) }));
await shutdownThreadPool();
