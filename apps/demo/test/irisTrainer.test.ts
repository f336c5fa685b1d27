import { describe, expect, it, vi } from 'vitest';
import type { WorkerReport } from '../src/protocol.js';

const reports: WorkerReport[] = [];
vi.mock('../src/protocol.js', () => ({ report: (r: WorkerReport) => reports.push(r), reportStats: async () => {} }));

const { parseConfig } = await import('../src/cli.js');
const { loadIris } = await import('../src/data/iris.js');
const { trainEpochs } = await import('../src/examples/irisTrainer.js');

type Config = Exclude<ReturnType<typeof parseConfig>, 'help'>;

/**
 * A fake trainer whose "parameters" are a version number bumped by each step's update: the
 * held-out "accuracy" is the version it is evaluated on, and `log` records the order of
 * updates and epoch reports.
 */
async function run(reportInFlight: boolean, callInFlight: boolean) {
  reports.length = 0;
  const c = parseConfig(['ps', '--epochs', '3', '--workers', '3']) as Config;
  const share = loadIris(c.seed, 2).train[0]!;
  let version = 0;
  const log: string[] = [];
  await trainEpochs(
    c,
    1,
    share,
    async (_b, inFlight) => {
      if (callInFlight) await inFlight(); // the update is on the wire: the parameters are not updated yet
      version++;
      log.push(`update ${version}`);
      return { loss: 0, acc: 1 };
    },
    () => {
      log.push(`held-out on ${version}`);
      return version;
    },
    { reportInFlight },
  );
  const epochs = reports.filter((r) => r.type === 'epoch');
  return { epochs, log, stepsPerEpoch: Math.ceil(share.y.numel / c.batchSize) };
}

describe('trainEpochs (Note [Bookkeeping while the update is in flight])', () => {
  it('reports each epoch once, in order, with the held-out accuracy of the parameters the epoch ended with, in flight or not', async () => {
    for (const [reportInFlight, callInFlight] of [
      [false, false],
      [true, true],
      [false, true],
    ]) {
      const { epochs, stepsPerEpoch } = await run(reportInFlight!, callInFlight!);
      expect(epochs.map((r) => (r.type === 'epoch' ? [r.epoch, r.testAcc] : null))).toEqual([
        [1, stepsPerEpoch],
        [2, 2 * stepsPerEpoch],
        [3, 3 * stepsPerEpoch],
      ]);
    }
  });

  it('with reportInFlight, the epoch report runs inside the next epoch first step, before its update; without, before that step', async () => {
    const inFlight = await run(true, true);
    const n = inFlight.stepsPerEpoch;
    expect(inFlight.log.slice(n - 1, n + 3)).toEqual([
      `update ${n}`,
      `held-out on ${n}`,
      `update ${n + 1}`,
      `update ${n + 2}`,
    ]);
    const atEnd = await run(false, true);
    expect(atEnd.log.slice(n - 1, n + 2)).toEqual([`update ${n}`, `held-out on ${n}`, `update ${n + 1}`]);
    // the last epoch is reported after the last step either way
    expect(inFlight.log.at(-1)).toBe(`held-out on ${3 * n}`);
  });
});
