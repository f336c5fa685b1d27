// worker_threads entry for the rpc benchmark: registers tsx, then runs the TypeScript callee.
import { register } from 'tsx/esm/api';

register();
await import('./rpcCallee.ts');
