// The raw ZeroMQ peers of `pnpm bench rpc` (rpc.bench.ts, rpcCallee.ts, rpcEcho.ts): a DEALER that
// calls, a ROUTER that echoes, and the private directory of a raw echo's Unix socket.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dealer, Router } from 'zeromq';

/** A raw zeromq DEALER on `address`: `call` sends frames and resolves with the echo (one request at a time per frame set, matched FIFO). */
export function rawDealer(address: string): {
  call: (frames: (Uint8Array | string)[]) => Promise<void>;
  close: () => void;
} {
  const raw = new Dealer({ linger: 0 });
  raw.connect(address);
  const waiting: (() => void)[] = [];
  void (async () => {
    try {
      for await (const _ of raw) waiting.shift()?.();
    } catch {
      // closed
    }
  })();
  let sendChain = Promise.resolve();
  const call = (frames: (Uint8Array | string)[]) =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      sendChain = sendChain.then(() => raw.send(frames));
    });
  return { call, close: () => raw.close() };
}

/** What a hand-written ROUTER server does: echoes every frame set, bound at each of `addresses` (none: no echo). */
export async function rawEcho(addresses: readonly string[]): Promise<{ close: () => Promise<void> }> {
  if (addresses.length === 0) return { close: async () => {} };
  const router = new Router({ linger: 0 });
  for (const address of addresses) await router.bind(address);
  const echoing = (async () => {
    try {
      for await (const frames of router) await router.send(frames);
    } catch {
      // closed
    }
  })();
  return {
    close: async () => {
      router.close();
      await echoing;
    },
  };
}

/** A private directory of its own (mode 0700, as the agent's) for the raw echo's Unix socket. */
export const rawIpcDirectory = (): string => mkdtempSync(join(tmpdir(), 'wiregrad-bench-'));
