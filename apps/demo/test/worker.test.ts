import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '@wiregrad/test-helpers';
import { demoCommand, demoDir } from './runDemo.js';

/** `pnpm demo worker ...` started by hand (no launcher, no IPC channel), its output gathered. */
function worker(args: string[]) {
  const child = spawn(process.execPath, [...demoCommand, 'worker', ...args], {
    cwd: demoDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = { child, out: '', exit: new Promise<number | null>((res) => child.on('exit', res)) };
  child.stdout!.on('data', (d) => (proc.out += d));
  child.stderr!.on('data', (d) => (proc.out += d));
  return proc;
}

/** Resolves once `pattern` matched `count` times in what `p` printed (polled: no timing assumption). */
async function printed(p: { out: string; child: ChildProcess }, pattern: RegExp, count: number): Promise<void> {
  while ([...p.out.matchAll(pattern)].length < count) {
    if (p.child.exitCode !== null) throw new Error(`the worker exited with ${p.child.exitCode}:\n${p.out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('pnpm demo worker, started by hand (workers on several machines)', () => {
  it('a trainer started first says every few seconds that it waits for rank 0; rank 0 says where it waits for how many; then the group trains', async () => {
    const master = `tcp://127.0.0.1:${await freePort()}`;
    const out = mkdtempSync(join(tmpdir(), 'wiregrad-worker-'));
    const common = ['--workers', '3', '--master', master, '--epochs', '2', '--seed', '1', '--out', out];
    const started: ReturnType<typeof worker>[] = [];
    try {
      const trainer1 = worker(['--rank', '1', ...common]);
      started.push(trainer1);
      const waiting = new RegExp(
        `\\[worker1\\] waiting for rank 0 at ${master.replace(/\./g, '\\.')} \\(and the rest of the 3 workers\\), \\d+ s so far`,
        'g',
      );
      await printed(trainer1, waiting, 2);

      // the other two together: trainer 1 gives up 30 s after it started waiting
      const server = worker(['--rank', '0', ...common]);
      const trainer2 = worker(['--rank', '2', ...common]);
      started.push(server, trainer2);
      await printed(
        server,
        new RegExp(
          `^\\[ps\\] serving the rendezvous at ${master.replace(/\./g, '\\.')}: waiting for all 3 workers \\(--workers 3\\) to join, 0 s so far`,
          'gm',
        ),
        1,
      );

      for (const p of started) expect(await p.exit, p.out).toBe(0);
      for (const [i, p] of [trainer1, trainer2].entries())
        expect(p.out).toMatch(new RegExp(`\\[trainer ${i + 1}\\] held-out accuracy: [\\d.]+% on \\d+ Iris flowers`));
      // once the group has met, the notices stop
      expect(trainer1.out.lastIndexOf('waiting for rank 0')).toBeLessThan(trainer1.out.indexOf('[trainer 1] epoch 1 '));
      expect(trainer2.out).not.toContain('[ps] serving the rendezvous');
    } finally {
      for (const p of started) p.child.kill('SIGKILL');
    }
  }, 120_000);

  it('a parameter server whose trainers all died exits non-zero and says so', async () => {
    const master = `tcp://127.0.0.1:${await freePort()}`;
    const out = mkdtempSync(join(tmpdir(), 'wiregrad-worker-'));
    const common = ['--workers', '2', '--master', master, '--epochs', '500', '--seed', '1', '--out', out];
    const started: ReturnType<typeof worker>[] = [];
    try {
      const server = worker(['--rank', '0', ...common]);
      const trainer = worker(['--rank', '1', ...common]);
      started.push(server, trainer);
      await printed(trainer, /\[trainer 1\] epoch 2 /g, 1);
      trainer.child.kill('SIGKILL');
      expect(await server.exit, server.out).toBe(1);
      expect(server.out).toContain('every trainer died (1) before finishing: nothing was trained to the end');
    } finally {
      for (const p of started) p.child.kill('SIGKILL');
    }
  }, 120_000);

  it('a worker that joins a running group says it joins one', async () => {
    const master = `tcp://127.0.0.1:${await freePort()}`;
    const joiner = worker(['--join', '--rank', '1', '--workers', '3', '--master', master, '--epochs', '1']);
    try {
      await printed(
        joiner,
        /joining the running group at tcp:\/\/127\.0\.0\.1:\d+: waiting for its rank 0 to answer/g,
        1,
      );
      expect(joiner.out).not.toContain('the rest of the');
    } finally {
      joiner.child.kill('SIGKILL');
    }
  }, 60_000);
});
