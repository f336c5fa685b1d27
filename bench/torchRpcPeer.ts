// PyTorch's RPC and distributed autograd as a peer of `pnpm bench rpc`: bench/torchRpcPeer.py,
// a caller and a callee process over TensorPipe, run once after ours in the same bench run.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@wiregrad/test-helpers';
import { CHILD_ENV, PYTHONS } from './torchPeer.js';

const SCRIPT = fileURLToPath(new URL('./torchRpcPeer.py', import.meta.url));

/** What PyTorch measured: its version, the median tiny rpc_sync round trip and one-hop distributed round (ms). */
export interface TorchRpcTimes {
  torch: string;
  echoMs: number;
  roundMs: number;
}

/** Runs the PyTorch peer with the first python that has torch; `skipped` says why none did. */
export async function torchRpcTimes(rounds: number): Promise<TorchRpcTimes | { skipped: string }> {
  const reasons: string[] = [];
  for (const python of PYTHONS) {
    const port = await freePort();
    const out = await new Promise<string>((resolve) => {
      const child = spawn(python, [SCRIPT, String(port), String(rounds)], { env: CHILD_ENV });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.once('error', (e) => resolve(JSON.stringify({ error: e.message })));
      child.once('exit', (code) => {
        const last = stdout.trim().split('\n').pop() ?? '';
        resolve(
          last.startsWith('{')
            ? last
            : JSON.stringify({ error: `exited with ${code}: ${stderr.trim().split('\n').pop() ?? ''}` }),
        );
      });
    });
    const r = JSON.parse(out) as Partial<TorchRpcTimes> & { error?: string };
    if (r.error === undefined && r.torch !== undefined) return r as TorchRpcTimes;
    reasons.push(`${python}: ${r.error}`);
  }
  return { skipped: reasons.join('; ') };
}
