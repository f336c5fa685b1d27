import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '@wiregrad/test-helpers';
import { alive, demoCommand, demoDir, runDemo } from './runDemo.js';

describe('demo end to end (real processes, real ZeroMQ)', () => {
  it('the parameter-server example trains Iris above 90 % held-out accuracy, exits cleanly, leaves no process and writes a plot', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wiregrad-demo-'));
    const r = await runDemo(['--epochs', '12', '--out', out, '--seed', '1']);
    expect(r.status, r.stderr).toBe(0);
    const accs = [...r.stdout.matchAll(/held-out accuracy: ([\d.]+)%/g)].map((m) => Number(m[1]));
    expect(accs).toHaveLength(2);
    for (const a of accs) expect(a).toBeGreaterThanOrEqual(90);
    const pids = /workers: pids ([\d,]+)/.exec(r.stdout)![1]!.split(',').map(Number);
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    const plot = join(out, 'ps-training.svg');
    expect(existsSync(plot)).toBe(true);
    expect(r.stdout).toContain(`plot: ${plot}\n`);
    const legends = [...readFileSync(plot, 'utf8').matchAll(/aria-label="(Symbol legend [^"]*)"/g)].map((m) => m[1]);
    expect(legends).toEqual([
      "Symbol legend titled 'worker' for stroke color with 2 values: trainer 1, trainer 2",
      "Symbol legend titled 'curve' for strokeDash with 1 value: loss",
      "Symbol legend titled 'worker' for stroke color with 2 values: trainer 1, trainer 2",
      "Symbol legend titled 'curve' for strokeDash with 2 values: train, held-out",
    ]);
    expect(r.stdout).toContain('bytes sent per step');
  }, 240_000);

  it("from its sources, as pnpm demo runs it: the workers run src/main.ts under tsx too (Note [Workers run the launcher's program])", async () => {
    const out = mkdtempSync(join(tmpdir(), 'wiregrad-demo-'));
    const r = await runDemo(['--epochs', '2', '--out', out, '--seed', '1'], 240_000, {}, { source: true });
    expect(r.status, r.stderr).toBe(0);
    expect([...r.stdout.matchAll(/held-out accuracy: ([\d.]+)%/g)]).toHaveLength(2);
  }, 240_000);

  it.each(['batch', 'dist'])(
    '--update %s trains Iris above 90 %% held-out accuracy too',
    async (update) => {
      const out = mkdtempSync(join(tmpdir(), 'wiregrad-demo-'));
      const r = await runDemo(['--update', update, '--epochs', '12', '--out', out, '--seed', '1']);
      expect(r.status, r.stderr).toBe(0);
      const accs = [...r.stdout.matchAll(/held-out accuracy: ([\d.]+)%/g)].map((m) => Number(m[1]));
      expect(accs).toHaveLength(2);
      for (const a of accs) expect(a).toBeGreaterThanOrEqual(90);
    },
    240_000,
  );
});

describe('demo when a trainer dies and a replacement joins (Note [Trainers compute, the server updates], Note [Membership])', () => {
  // batch: the server's step waits for the whole group, so a death must not leave it waiting
  it.each(['async', 'batch'])(
    '--update %s: kill -9 of trainer 1 in epoch 2: the server says so and trains on; a trainer started with --join takes its place; the run finishes above 90 %%',
    async (update) => {
      const port = await freePort();
      const master = `tcp://127.0.0.1:${port}`;
      const node = (args: string[]) =>
        spawn(process.execPath, [...demoCommand, ...args], {
          cwd: demoDir,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      const out = mkdtempSync(join(tmpdir(), 'wiregrad-demo-'));
      // long enough for the replacement to join while trainer 2 still trains (4 s to notice the death, 1-3 s to
      // start), on the fastest machine this ran on, idle, where epochs are fastest: with async updates it joined
      // at trainer 2's epoch 535 on one 2-core VM and at 1489-1584 on a faster one (3 runs; the spec had
      // failed there with 1000), with batch ones at 23 (their steps wait for the dead trainer until the server notices)
      const epochs = update === 'async' ? '3000' : '400';
      const run = node(['--update', update, '--epochs', epochs, '--seed', '1', '--master', master, '--out', out]);
      let joiner: ReturnType<typeof node> | null = null;
      let stdout = '';
      let joinerOut = '';
      let killedAt = 0;
      let detectedAt = 0;
      const t0 = Date.now();
      try {
        const finished = new Promise<number | null>((resolve) => run.on('exit', resolve));
        run.stderr.on('data', (d) => (stdout += d));
        run.stdout.on('data', (d: Buffer) => {
          stdout += d;
          const pids = /workers: pids ([\d,]+)/.exec(stdout);
          if (!killedAt && pids && /\[trainer 1\] epoch 2\//.test(stdout)) {
            killedAt = Date.now();
            process.kill(Number(pids[1]!.split(',')[1]), 'SIGKILL');
          }
          if (!detectedAt && stdout.includes('[ps] worker1 died (no heartbeat); training continues with 1 trainer')) {
            detectedAt = Date.now();
            joiner = node([
              'worker',
              '--join',
              '--rank',
              '1',
              '--master',
              master,
              '--workers',
              '3',
              '--epochs',
              '15',
              '--seed',
              '1',
              '--update',
              update,
            ]);
            joiner.stdout!.on('data', (j) => (joinerOut += j));
            joiner.stderr!.on('data', (j) => (joinerOut += j));
          }
        });
        const code = await finished;
        expect(code, stdout).toBe(0);
        expect(stdout).toMatch(
          /worker 1 \(pid \d+\) exited with SIGKILL; the parameter server trains on with the other trainers/,
        );
        // detected by heartbeat (3 s of silence by default), not by the 30 s RPC timeout
        expect(detectedAt - killedAt).toBeLessThan(10_000);
        expect(stdout).toContain('[ps] worker1 joined');
        const accs = [...stdout.matchAll(/held-out accuracy: ([\d.]+)%/g)].map((m) => Number(m[1]));
        expect(accs.length).toBe(1); // trainer 2; trainer 1 died
        for (const a of accs) expect(a).toBeGreaterThanOrEqual(90);
        const j = joiner as ReturnType<typeof node> | null;
        expect(j).not.toBeNull();
        const joinerCode = await new Promise((r) => (j!.exitCode !== null ? r(j!.exitCode) : j!.on('exit', r)));
        expect(joinerCode, joinerOut).toBe(0);
        const joinerAcc = /held-out accuracy: ([\d.]+)%/.exec(joinerOut);
        expect(joinerAcc, joinerOut).not.toBeNull();
        expect(Number(joinerAcc![1])).toBeGreaterThanOrEqual(90);
        expect(Date.now() - t0).toBeLessThan(150_000);
      } finally {
        run.kill('SIGKILL');
        (joiner as ReturnType<typeof node> | null)?.kill('SIGKILL');
      }
    },
    200_000,
  );
});

describe('demo when the parameter server stalls (SIGSTOP)', () => {
  it('every trainer reports it lost the server, the launcher says the server stopped answering (not that it trains on), and the run fails with no process left', async () => {
    const port = await freePort();
    const out = mkdtempSync(join(tmpdir(), 'wiregrad-demo-'));
    const run = spawn(
      process.execPath,
      [...demoCommand, '--epochs', '2000', '--seed', '1', '--master', `tcp://127.0.0.1:${port}`, '--out', out],
      { cwd: demoDir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    let pids: number[] = [];
    try {
      const finished = new Promise<number | null>((resolve) => run.on('exit', resolve));
      const onData = (d: Buffer) => {
        output += d;
        const m = /workers: pids ([\d,]+)/.exec(output);
        if (pids.length === 0 && m && /\[trainer 1\] epoch 2\//.test(output)) {
          pids = m[1]!.split(',').map(Number);
          process.kill(pids[0]!, 'SIGSTOP');
        }
      };
      run.stdout.on('data', onData);
      run.stderr.on('data', onData);
      const code = await finished;
      expect(code, output).not.toBe(0);
      expect(output).toMatch(/trainer [12] lost the parameter server \(it stopped answering/);
      expect(output).toMatch(/lost the connection to WorkerInfo\(id=0, name=ps\) \(it stopped answering heartbeats/);
      expect(output).not.toContain('the parameter server trains on');
      for (const pid of pids) expect(alive(pid)).toBe(false);
    } finally {
      for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
      run.kill('SIGKILL');
    }
  }, 120_000);
});
