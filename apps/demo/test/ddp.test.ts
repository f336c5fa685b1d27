import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from '@wiregrad/nn';
import { describe, expect, it } from 'vitest';
import { parseConfig, UsageError, type DemoConfig } from '../src/cli.js';
import { accuracyOf, predict } from '../src/examples/mnist.js';
import { ddpConvnet, ddpData, samplerFor } from '../src/examples/ddpTraining.js';
import { runDemo } from './runDemo.js';

const config = (argv: string[]) => parseConfig(argv, '/') as DemoConfig;
const usage = (argv: string[]) => {
  try {
    parseConfig(argv, '/');
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as UsageError).message;
  }
  throw new Error(`parseConfig accepted ${argv.join(' ')}`);
};

describe('pnpm demo ddp (the mnist convnet with DistributedDataParallel through wiregrad-run)', () => {
  it('defaults to 2 processes of 32 digits a step, 5 epochs; the training set must split evenly', () => {
    const c = config(['ddp']);
    expect([c.example, c.workers, c.batchSize, c.epochs, c.trainSize, c.testSize]).toEqual([
      'ddp',
      2,
      32,
      5,
      9000,
      1000,
    ]);
    expect(config(['ddp', '--workers', '3', '--train', '300']).workers).toBe(3);
    expect(usage(['ddp', '--train', '1001'])).toBe(
      '--train must be a multiple of --workers for the ddp example, got 1001 and 2',
    );
    expect(usage(['ddp', '--workers', '1'])).toBe("--workers must be an integer >= 2, got '1'");
    expect(usage(['ddp', '--master', 'tcp://127.0.0.1:1'])).toContain('--master is not for the ddp example');
    expect(usage(['worker', '--example', 'ddp', '--rank', '0'])).toContain('run pnpm demo ddp');
  });

  it("the ranks' batches of a step are together the one-process batch of that step (Note [DDP parity with one process])", () => {
    const n = 40;
    const batch = 4;
    for (const epoch of [0, 1]) {
      const ranks = [0, 1].map((r) => samplerFor(n, 2, r, 7));
      const one = samplerFor(n, 1, 0, 7);
      for (const s of [...ranks, one]) s.setEpoch(epoch);
      const [a, b] = ranks.map((s) => [...s]);
      const whole = [...one];
      for (let step = 0; step < n / (2 * batch); step++) {
        const together = [...a!.slice(step * batch, (step + 1) * batch), ...b!.slice(step * batch, (step + 1) * batch)];
        expect(together.sort((x, y) => x - y)).toEqual(
          whole.slice(step * 2 * batch, (step + 1) * 2 * batch).sort((x, y) => x - y),
        );
      }
    }
  });

  // 256 training digits, 1 epoch: 4 steps of 32 digits on each of 2 ranks, then one process on 4 steps of 64
  it('a short run: per-rank progress, both accuracies, samples/s of 1 and 2 processes, and the same parameters as one process', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wiregrad-ddp-'));
    try {
      const r = await runDemo(
        ['ddp', '--train', '256', '--test', '100', '--epochs', '1', '--seed', '1', '--out', out],
        240_000,
        {},
        { source: true },
      );
      expect(r.status, r.stdout + r.stderr).toBe(0);
      for (const rank of [0, 1]) {
        expect(r.stdout).toContain(`[rank${rank}]: 128 training digits an epoch`);
        expect(r.stdout).toMatch(new RegExp(`^\\[rank${rank}\\]: epoch 1/1 step 4/4: loss [\\d.]+, train acc`, 'm'));
        expect(r.stdout).toMatch(new RegExp(`^\\[rank${rank}\\]: trained on 128 digits in [\\d.]+ s`, 'm'));
      }
      expect(r.stdout).toMatch(/^\[one process\]: epoch 1\/1 step 4\/4: /m);
      const acc =
        /held-out accuracy: ([\d.]+) % with DDP on 2 processes, ([\d.]+) % in one process \(100 digits\)/.exec(
          r.stdout,
        );
      expect(acc, r.stdout).not.toBeNull();
      const speed = /samples\/s: (\d+) in 1 process, (\d+) on 2 processes together/.exec(r.stdout);
      expect(speed, r.stdout).not.toBeNull();
      expect(Number(speed![1])).toBeGreaterThan(0);
      expect(Number(speed![2])).toBeGreaterThan(0);
      const parity = /the same on every rank: yes .* largest \|DDP - one process\| ([\d.e+-]+) \(within 1e-5\)/.exec(
        r.stdout,
      );
      expect(parity, r.stdout).not.toBeNull();
      expect(Number(parity![1])).toBeLessThanOrEqual(1e-5);

      // the weights rank 0 saved predict what the demo printed for the DDP model
      const model = ddpConvnet(0);
      model.loadStateDict(await load(join(out, 'mnist-ddp.safetensors')));
      const { test } = await ddpData({
        seed: 1,
        trainSize: 256,
        testSize: 100,
        epochs: 1,
        batchSize: 32,
        lr: 0.05,
        weights: '',
      });
      const reloaded = accuracyOf(await predict((b) => model.forward(b), test.x), test.y);
      expect((100 * reloaded).toFixed(1)).toBe(acc![1]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 300_000);
});
