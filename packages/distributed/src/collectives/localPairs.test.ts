import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { narrow, noGrad, tensor, toTypedArray } from '@wiregrad/autograd';
import { LocalPairs } from './localPairs.js';
import type { Chunk } from './mailbox.js';

const dir = () => mkdtempSync(join(tmpdir(), 'pairs-'));
const opened: LocalPairs[] = [];
afterEach(() => opened.splice(0).forEach((p) => p.close()));

async function two() {
  const got: [string, Chunk][] = [];
  const a = await LocalPairs.listen(dir(), 'host', () => {});
  const b = await LocalPairs.listen(dir(), 'host', (key, chunk) => void got.push([key, chunk]));
  opened.push(a, b);
  await b.connect(1, a.endpoint); // rank 1 (b) receives from rank 0 (a) on the connection it made
  return { a, b, got };
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('local pairs (Note [Local pairs])', () => {
  it('carry chunks of every dtype, large and empty, in order, into blocks that can be given back', async () => {
    const { a, b, got } = await two();
    expect([a.has(1), b.has(0)]).toEqual([true, false]);
    const big = new Float32Array(300_000).map((_, i) => i * 0.5);
    await a.send(1, 'k1', { meta: { kind: 'ring' }, data: tensor(Array.from(big), { dtype: 'float32' }) });
    await a.send(1, 'k2', { meta: { kind: 'x', shape: [2] }, data: tensor([1.25, -3], { dtype: 'float64' }) });
    await a.send(1, 'k3', { meta: { kind: 'hello', extra: 'e' }, data: null });
    await a.send(1, 'k4', { meta: { kind: 'y' }, data: tensor([7, -8], { dtype: 'int32' }).reshape([2, 1]).t() });
    await until(() => got.length === 4);
    expect(got.map(([k]) => k)).toEqual(['k1', 'k2', 'k3', 'k4']);
    expect(toTypedArray(got[0]![1].data!)).toEqual(big);
    expect(got[1]![1]).toMatchObject({ meta: { kind: 'x', shape: [2] } });
    expect(Array.from(toTypedArray(got[1]![1].data!))).toEqual([1.25, -3]);
    expect(got[2]![1]).toMatchObject({ meta: { kind: 'hello', extra: 'e' }, data: null });
    expect(Array.from(toTypedArray(got[3]![1].data!))).toEqual([7, -8]);
    expect(got[0]![1].data!.dtype).toBe('float32');
    got[0]![1].release!();
    await a.send(1, 'k5', { meta: { kind: 'ring' }, data: tensor(Array.from(big), { dtype: 'float32' }) });
    await until(() => got.length === 5);
    expect(toTypedArray(got[4]![1].data!)).toEqual(big);
  });

  it('land large data at the address the sender had it at, modulo 8, read straight into the block (Notes [Aligned blocks], [Reads into the block])', async () => {
    const { a, got } = await two();
    const values = Array.from({ length: 400_001 }, (_, i) => Math.sin(i));
    const whole = tensor(values, { dtype: 'float32' });
    const address = (t: NonNullable<Chunk['data']>) => t.storage.data.byteOffset + t.offset * 4;
    // odd and even float offsets, and small data between large ones on the same connection
    const sent = [0, 1, 2, 3].map((k) => noGrad(() => narrow(whole, 0, k, 400_000 - k)));
    for (const [k, t] of sent.entries()) {
      await a.send(1, `big${k}`, { meta: { kind: 'ring' }, data: t });
      await a.send(1, `small${k}`, { meta: { kind: 'x' }, data: tensor([k, -k], { dtype: 'float64' }) });
    }
    await until(() => got.length === 8);
    sent.forEach((t, k) => {
      const [key, chunk] = got[2 * k]!;
      expect(key).toBe(`big${k}`);
      expect(toTypedArray(chunk.data!)).toEqual(toTypedArray(t));
      expect(address(chunk.data!) % 8).toBe(address(t) % 8);
      expect(Array.from(toTypedArray(got[2 * k + 1]![1].data!))).toEqual([k, -k]);
    });
  });

  it('drop a connection that does not show the nonce, unread, and never send to it', async () => {
    const a = await LocalPairs.listen(dir(), 'host', () => {});
    opened.push(a);
    const s = connect(a.endpoint.path);
    const closed = new Promise<void>((r) => s.once('close', () => r()));
    s.on('error', () => {});
    s.write(`${'0'.repeat(32)} 3\n`);
    await closed;
    expect(a.has(3)).toBe(false);
  });

  it('fail a send to a rank whose end closed with PEER_GONE naming it', async () => {
    const { a, b } = await two();
    b.close();
    await until(() => false); // let the close reach a
    const sends = Array.from({ length: 8 }, () =>
      a.send(1, 'k', { meta: { kind: 'ring' }, data: tensor(new Array(100_000).fill(1), { dtype: 'float32' }) }),
    );
    await expect(Promise.all(sends)).rejects.toMatchObject({
      code: 'PEER_GONE',
      message: expect.stringContaining('rank1'),
    });
  });
});
