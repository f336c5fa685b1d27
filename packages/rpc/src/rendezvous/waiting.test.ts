import { describe, expect, it } from 'vitest';
import { freePort } from '@wiregrad/test-helpers';
import { RendezvousStore, requestRendezvous, type WorkerRecord } from './store.js';
import { missingRanks, storeWaiting } from './waiting.js';

const record = (name: string, rank: number): WorkerRecord => ({
  name,
  rank,
  address: 'tcp://127.0.0.1:1',
  publicKey: null,
  maxMessageBytes: 1 << 20,
});

describe('a waiting rendezvous says who it waits for, and why it may never come (Note [Rendezvous])', () => {
  it('the ranks nobody claims are the missing ones', () => {
    expect(missingRanks([0, 2], 4)).toEqual([1, 3]);
    expect(missingRanks([0], 1)).toEqual([]);
    expect(storeWaiting('tcp://h:1', [0], 2)).toBe(
      'rendezvous at tcp://h:1: 1 of 2 workers arrived; waiting for rank 1',
    );
  });

  it('rank 0 reports the missing ranks while it waits, then times out naming them and the likely causes', async () => {
    const address = `tcp://127.0.0.1:${await freePort()}`;
    const store = await RendezvousStore.start(address, null, () => {});
    const reports: string[] = [];
    try {
      const worker1 = requestRendezvous(address, record('w1', 1), false, 1200, null);
      const done = store.rendezvous(record('w0', 0), 3, 900, undefined, {
        report: (m) => reports.push(m),
        everyMs: 200,
      });
      await expect(done).rejects.toMatchObject({
        code: 'RENDEZVOUS',
        message: expect.stringMatching(
          /^rendezvous timed out after 900 ms: 2 of 3 workers joined; missing rank 2\. Likely causes: .*address or port.*firewall.*rank numbering/,
        ),
      });
      // rank 1 gets no table: it times out on its own, naming rank 0's address
      await expect(worker1).rejects.toMatchObject({ code: 'RENDEZVOUS' });
    } finally {
      store.close();
    }
    expect(reports.length).toBeGreaterThanOrEqual(2);
    expect(reports.at(-1)).toBe(`rendezvous at ${address}: 2 of 3 workers arrived; waiting for rank 2`);
    const count = reports.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(reports).toHaveLength(count); // no report after the wait ended
  });

  it('a worker reports that it waits for rank 0, then times out with the likely causes', async () => {
    const address = `tcp://127.0.0.1:${await freePort()}`; // nobody serves it
    const reports: string[] = [];
    const waiting = requestRendezvous(address, record('w2', 2), false, 700, null, undefined, {
      report: (m) => reports.push(m),
      everyMs: 200,
    });
    await expect(waiting).rejects.toMatchObject({
      code: 'RENDEZVOUS',
      message: expect.stringMatching(
        new RegExp(
          `^rendezvous timed out after 700 ms waiting for rank 0 at ${address}\\. Likely causes: a wrong address or port.*firewall.*rank numbering.*rank 0 never started`,
        ),
      ),
    });
    expect(reports.length).toBeGreaterThanOrEqual(2);
    for (const r of reports)
      expect(r).toMatch(new RegExp(`^rank 2 waiting for rank 0 at ${address} \\(\\d+ s so far\\)$`));
  });

  it('says nothing when nobody asks for reports or the wait ends before the first one', async () => {
    const address = `tcp://127.0.0.1:${await freePort()}`;
    const store = await RendezvousStore.start(address, null, () => {});
    const reports: string[] = [];
    try {
      const worker1 = requestRendezvous(address, record('w1', 1), false, 5000, null, undefined, {
        report: (m) => reports.push(m),
      });
      const table = await store.rendezvous(record('w0', 0), 2, 5000, undefined, { report: (m) => reports.push(m) });
      expect(table.map((r) => r.name)).toEqual(['w0', 'w1']);
      expect((await worker1).rank).toBe(1);
    } finally {
      store.close();
    }
    expect(reports).toEqual([]);
  });
});
