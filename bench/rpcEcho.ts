// The 16 MiB echo of `pnpm bench rpc` in a caller and a callee process of their own, both started
// with this process's Node flags (rpc.bench.ts runs it with --initial-old-space-size: Note [Large
// messages and the GC] in @wiregrad/rpc): rpcSync against a raw ZeroMQ DEALER/ROUTER echo over a
// Unix socket, in alternating blocks (Note [Timed blocks]). The caller prints one JSON line,
// { ours, raw } in ms (medians).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dealer, Router } from 'zeromq';
import { tensor } from '@wiregrad/autograd';
import { initRpc, register, rpcSync, shutdown } from '@wiregrad/rpc';
import { freePort } from '@wiregrad/test-helpers';
import { interleavedMediansAsync, timed } from './report.js';

const BYTES = 16 << 20;
register('echo', (x: unknown) => x);

if (process.env.RPC_ECHO_CALLEE) {
  const { initMethod, raw } = JSON.parse(process.env.RPC_ECHO_CALLEE) as { initMethod: string; raw: string };
  const router = new Router({ linger: 0 });
  await router.bind(raw);
  const echoing = (async () => {
    try {
      for await (const frames of router) await router.send(frames);
    } catch {
      // closed
    }
  })();
  await initRpc('callee', { rank: 1, worldSize: 2, backendOptions: { initMethod, rpcTimeout: 60 } });
  await shutdown({ timeout: 600 });
  router.close();
  await echoing;
} else {
  const dir = mkdtempSync(join(tmpdir(), 'wiregrad-bench-'));
  const initMethod = `tcp://127.0.0.1:${await freePort()}`;
  const raw = `ipc://${join(dir, 'raw.sock')}`;
  const callee = spawn(process.execPath, [...process.execArgv, process.argv[1]!], {
    env: { ...process.env, RPC_ECHO_CALLEE: JSON.stringify({ initMethod, raw }) },
    stdio: 'inherit',
  });
  const exited = new Promise((r) => callee.once('exit', r));
  await initRpc('caller', { rank: 0, worldSize: 2, backendOptions: { initMethod, rpcTimeout: 60 } });
  const dealer = new Dealer({ linger: 0 });
  dealer.connect(raw);
  const waiting: (() => void)[] = [];
  const replies = (async () => {
    for await (const _ of dealer) waiting.shift()?.();
  })().catch(() => {});
  const bytes = new Uint8Array(BYTES);
  const t = tensor(new Float32Array(BYTES / 4));
  const rawCall = () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      void dealer.send(bytes);
    });
  const medians = await interleavedMediansAsync(
    { raw: timed(rawCall), ours: timed(() => rpcSync(1, 'echo', [t])) },
    40,
    5,
  );
  console.log(JSON.stringify(medians));
  dealer.close();
  await replies;
  await shutdown({ timeout: 60 });
  await exited;
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
