// The thread of parent.ts: answers its workerData, upper-cased, with a type only TypeScript has.
import { parentPort, workerData } from 'node:worker_threads';

const said: string = (workerData as string).toUpperCase();
parentPort!.postMessage(said);
