import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load } from '@wiregrad/nn';
import { parseConfig, UsageError, workerArgv, type DemoConfig } from '../src/cli.js';
import { encodeBatch, loadNames } from '../src/data/names.js';
import { alive, runDemo } from './runDemo.js';

describe('names data', () => {
  it('the distinct lower-cased names of both @stdlib lists, split 90/10 by the seed, 28 symbols with the end marker', () => {
    const a = loadNames(0);
    expect(a.train.length + a.test.length).toBe(8422);
    expect(a.test).toHaveLength(842);
    expect(new Set([...a.train, ...a.test]).size).toBe(8422);
    expect(a.itos.join('')).toBe('.-abcdefghijklmnopqrstuvwxyz');
    expect(a.blockSize).toBe(16);
    expect(loadNames(0).test).toEqual(a.test);
    expect(loadNames(1).test).not.toEqual(a.test);
  });

  it('a batch: start token then letters in, letters then end marker out, -1 after the end', () => {
    const { stoi } = loadNames(0);
    const { x, y } = encodeBatch(['ab', 'c'], stoi);
    expect(x.tolist()).toEqual([
      [0, 2, 3],
      [0, 4, 0],
    ]);
    expect(y.tolist()).toEqual([2, 3, 0, 4, 0, -1]);
  });
});

describe('pnpm demo names (real processes, real ZeroMQ)', () => {
  it('command line: --steps, --sample needs --from, 3 workers, defaults of the issue', () => {
    const c = parseConfig(['names'], '/p') as DemoConfig;
    expect([c.steps, c.batchSize, c.lr, c.epochs, c.workers]).toEqual([1500, 32, 5e-3, 15, 3]);
    expect(workerArgv(parseConfig(['names', '--steps', '250'], '/p') as DemoConfig, 1, 'tcp://h:1')).toContain('250');
    expect(() => parseConfig(['names', '--sample'], '/p')).toThrow(UsageError);
    expect(() => parseConfig(['names', '--epochs', '3'], '/p')).toThrow(
      'the names example counts --steps, not --epochs',
    );
    expect((parseConfig(['names', '--ddp'], '/p') as DemoConfig).ddp).toBe(true);
    expect(() => parseConfig(['names', '--ddp', '--sample', '--from', 'x'], '/p')).toThrow(
      '--ddp trains; --sample reads a checkpoint: use one of them',
    );
    expect(() => parseConfig(['mnist', '--ddp'], '/p')).toThrow('--ddp are for the names example');
    expect(() => parseConfig(['pipeline', '--steps', '3'], '/p')).toThrow(
      '--steps, --sample, --from and --ddp are for the names example',
    );
  });

  it('trains over two stage workers, reports held-out losses, samples 20 names, writes and samples from the checkpoint', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wiregrad-names-'));
    const r = await runDemo(['names', '--steps', '120', '--out', out], 300_000);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('wiregrad demo: character Transformer split over two workers, 3 processes');
    const heldOut = [
      ...r.stdout.matchAll(/\[driver\] step (\d+)\/120 train loss [\d.]+ held-out ([\d.]+) nats\/char/g),
    ];
    expect(heldOut.map((m) => Number(m[1]))).toEqual([100, 120]);
    // a uniform guess over 28 symbols is ln 28 = 3.33 nats; a bigram table gets 2.43
    for (const m of heldOut) expect(Number(m[2])).toBeLessThan(2.6);
    const sampled = /\[names\] 20 sampled names \((\d+) not in the training set\): (.+)\n/.exec(r.stdout);
    expect(sampled, r.stdout).not.toBeNull();
    expect(sampled![2]!.split(', ')).toHaveLength(20);
    const checkpoint = join(out, 'names.safetensors');
    expect(r.stdout).toContain(`[names] checkpoint: ${checkpoint}\n`);
    expect(existsSync(join(out, 'names-training.svg'))).toBe(true);
    const sd = await load(checkpoint);
    expect(Object.keys(sd)).toContain('layers.1.self_attn.in_proj_weight');
    expect(sd['tok.weight']!.shape).toEqual([28, 64]);
    const pids = /workers: pids ([\d,]+)/.exec(r.stdout)![1]!.split(',').map(Number);
    for (const pid of pids) expect(alive(pid)).toBe(false);

    const s = await runDemo(['names', '--sample', '--from', checkpoint], 60_000);
    expect(s.status, s.stdout + s.stderr).toBe(0);
    // the same seed draws the same names from the same weights, in one process as over the pipeline
    expect(s.stdout).toContain(`20 sampled names (${sampled![1]} not in the training set): ${sampled![2]}\n`);
  }, 360_000);

  it('--ddp: two wiregrad-run processes train the whole model on halves of each batch, rank 0 reports, samples and saves', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wiregrad-names-ddp-'));
    const r = await runDemo(['names', '--ddp', '--steps', '100', '--out', out], 300_000, {}, { source: true });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'wiregrad demo: character Transformer, DistributedDataParallel on 2 processes (wiregrad-run), 16 names each a step',
    );
    const heldOut = [
      ...r.stdout.matchAll(/\[rank 0\] step (\d+)\/100 train loss [\d.]+ held-out ([\d.]+) nats\/char/g),
    ];
    expect(heldOut.map((m) => Number(m[1]))).toEqual([100]);
    // a uniform guess over 28 symbols is ln 28 = 3.33 nats; a bigram table gets 2.43
    expect(Number(heldOut[0]![2])).toBeLessThan(2.6);
    const sampled = /\[names\] 20 sampled names \((\d+) not in the training set\): (.+)\n/.exec(r.stdout);
    expect(sampled, r.stdout).not.toBeNull();
    const checkpoint = join(out, 'names.safetensors');
    expect(r.stdout).toContain(`[names] checkpoint: ${checkpoint}\n`);
    expect(existsSync(join(out, 'names-ddp-training.svg'))).toBe(true);
    const sd = await load(checkpoint);
    expect(Object.keys(sd)).toContain('layers.1.self_attn.in_proj_weight');
    expect(sd['tok.weight']!.shape).toEqual([28, 64]);
    // the saved model is the one rank 0 sampled from
    const s = await runDemo(['names', '--sample', '--from', checkpoint], 60_000);
    expect(s.status, s.stdout + s.stderr).toBe(0);
    expect(s.stdout).toContain(`20 sampled names (${sampled![1]} not in the training set): ${sampled![2]}\n`);
  }, 360_000);
});
