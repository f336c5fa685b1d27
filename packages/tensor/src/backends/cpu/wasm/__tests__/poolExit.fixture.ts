// Run as a child process by threadPool.test.ts: uses the pool, then lets the process end by itself
// (or after shutdownThreadPool() when given `--shutdown`).
import { matmul, randn, setNumThreads, shutdownThreadPool, sum } from '../../../../index.js';

setNumThreads(2);
const a = randn([300, 300]);
const product = matmul(a, a);
console.log(`sum ${sum(product).item().toFixed(3)} threads 2`);
if (process.argv.includes('--shutdown')) await shutdownThreadPool();
