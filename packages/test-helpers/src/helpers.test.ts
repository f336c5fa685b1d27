import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { tensor } from '@wiregrad/tensor';
import { errorOf, freePort, freePorts, plain, runWorkers } from './index.js';

const echo = new URL('./__tests__/echo.ts', import.meta.url);

describe('runWorkers', () => {
  it('runs the scenario on every rank (or the ranks asked for) and returns what each run() returned', async () => {
    expect(await runWorkers({ scenario: echo, worldSize: 3 })).toEqual(
      [0, 1, 2].map((rank) => ({ rank, worldSize: 3, tcp: true })),
    );
    expect(await runWorkers({ scenario: echo, worldSize: 3, ranks: [2] })).toEqual([
      { rank: 2, worldSize: 3, tcp: true },
    ]);
  });

  it('rejects with the rank and the error of a scenario that throws', async () => {
    await expect(runWorkers({ scenario: echo, worldSize: 2, ranks: [1], extra: 'throw' })).rejects.toThrow(
      /^rank 1: Error: rank 1 was told to fail/,
    );
  });

  it('runs the teardown module after the scenario, in the thread', async () => {
    // the teardown's message arrives last, so it is the result the harness keeps
    expect(
      await runWorkers({ scenario: echo, teardown: new URL('./__tests__/teardown.ts', import.meta.url), worldSize: 1 }),
    ).toEqual(['torn down']);
  });
});

describe('errorOf, plain, freePort', () => {
  it('errorOf: null on success, name/message/code on failure, for promises and thunks', async () => {
    expect(await errorOf(Promise.resolve(1))).toBeNull();
    expect(
      await errorOf(() => {
        throw Object.assign(new TypeError('no'), { code: 'E_NO' });
      }),
    ).toEqual({ name: 'TypeError', message: 'no', code: 'E_NO' });
  });

  it('plain spells out tensors, bigints, Maps and typed arrays', () => {
    expect(plain({ t: tensor([[1, 2]]), id: 5n, m: new Map([[1n, 'a']]), a: new Int32Array([3]) })).toEqual({
      t: { dtype: 'float32', shape: [1, 2], values: [[1, 2]], contiguous: true },
      id: '5n',
      m: [['1n', 'a']],
      a: { Int32Array: [3] },
    });
  });

  it('freePort gives a port a server can listen on', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    expect(port).toBeLessThan(65536);
    const srv = createServer();
    await new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((r) => srv.close(r));
  });

  it('freePort and freePorts never give a port twice, concurrent calls included, and (on Linux) keep below the ephemeral range, with the next port too', async () => {
    const ports = [...(await Promise.all(Array.from({ length: 10 }, () => freePort()))), ...(await freePorts(10))];
    expect(new Set(ports).size).toBe(20);
    let low: number | null = null;
    try {
      low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    } catch {
      // not Linux
    }
    if (low !== null && low - 2 - 10_000 >= 1000)
      for (const port of ports) {
        expect(port).toBeGreaterThanOrEqual(10_000);
        expect(port + 1).toBeLessThan(low);
      }
  });
});
