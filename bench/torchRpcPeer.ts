// PyTorch's RPC and distributed autograd as a peer of `pnpm bench rpc`: bench/torchRpcPeer.py,
// a caller and a callee process over TensorPipe, run once after ours in the same bench run.
import { fileURLToPath } from 'node:url';
import { freePort } from '@wiregrad/test-helpers';
import { runTorchScript } from './pythonPeer.js';

const SCRIPT = fileURLToPath(new URL('./torchRpcPeer.py', import.meta.url));

/** What PyTorch measured: its version, the median tiny rpc_sync round trip and one-hop distributed round (ms). */
export interface TorchRpcTimes {
  torch: string;
  echoMs: number;
  roundMs: number;
}

/** Runs the PyTorch peer with the first python that has torch; `skipped` says why none did. */
export function torchRpcTimes(rounds: number): Promise<TorchRpcTimes | { skipped: string }> {
  return runTorchScript<TorchRpcTimes>(SCRIPT, async () => [String(await freePort()), String(rounds)]);
}
