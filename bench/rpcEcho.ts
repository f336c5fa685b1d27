// The 16 MiB echo of `pnpm bench rpc` in a caller and a callee process of their own, both started
// with this process's Node flags (rpc.bench.ts runs it with --initial-old-space-size: Note [Large
// messages and the GC] in @wiregrad/rpc): rpcSync against a raw ZeroMQ DEALER/ROUTER echo over a
// Unix socket, in alternating blocks (Note [Timed blocks]). The caller prints one JSON line,
// { ours, raw } in ms (medians).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { tensor } from '@wiregrad/autograd';
import { initRpc, register, rpcSync, shutdown } from '@wiregrad/rpc';
import { freePort } from '@wiregrad/test-helpers';
import { rawDealer, rawEcho, rawIpcDirectory } from './rawZeromq.js';
import { interleavedMediansAsync, timed } from './report.js';

const BYTES = 16 << 20;
register('echo', (x: unknown) => x);

if (process.env.RPC_ECHO_CALLEE) {
  const { initMethod, raw } = JSON.parse(process.env.RPC_ECHO_CALLEE) as { initMethod: string; raw: string };
  const echo = await rawEcho([raw]);
  await initRpc('callee', { rank: 1, worldSize: 2, backendOptions: { initMethod, rpcTimeout: 60 } });
  await shutdown({ timeout: 600 });
  await echo.close();
} else {
  const dir = rawIpcDirectory();
  const initMethod = `tcp://127.0.0.1:${await freePort()}`;
  const raw = `ipc://${join(dir, 'raw.sock')}`;
  const callee = spawn(process.execPath, [...process.execArgv, process.argv[1]!], {
    env: { ...process.env, RPC_ECHO_CALLEE: JSON.stringify({ initMethod, raw }) },
    stdio: 'inherit',
  });
  const exited = new Promise((r) => callee.once('exit', r));
  await initRpc('caller', { rank: 0, worldSize: 2, backendOptions: { initMethod, rpcTimeout: 60 } });
  const dealer = rawDealer(raw);
  const bytes = new Uint8Array(BYTES);
  const t = tensor(new Float32Array(BYTES / 4));
  const medians = await interleavedMediansAsync(
    { raw: timed(() => dealer.call([bytes])), ours: timed(() => rpcSync(1, 'echo', [t])) },
    40,
    5,
  );
  console.log(JSON.stringify(medians));
  dealer.close();
  await shutdown({ timeout: 60 });
  await exited;
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
