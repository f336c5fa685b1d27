// bundleFixtures' spec fixture: a tensor op from the workspace's sources, then a thread started
// from the sibling bundled entry (Note [Bundled fixtures]).
import { Worker } from 'node:worker_threads';
import { tensor } from '@wiregrad/tensor';

const sum = tensor([1, 2, 3]).add(tensor([10, 20, 30]));
process.stdout.write(`sum ${(sum.tolist() as number[]).join(',')}\n`);
const thread = new Worker(new URL('./child.mjs', import.meta.url), { workerData: 'hello' });
thread.on('message', (m: string) => process.stdout.write(`thread said ${m}\n`));
