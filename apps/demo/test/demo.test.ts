import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const demoDir = new URL('..', import.meta.url).pathname;

function runDemo(args: string[]) {
  return spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts', ...args], { cwd: demoDir, encoding: 'utf8', timeout: 240_000 });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('demo end to end (real processes, real ZeroMQ)', () => {
  it('the parameter-server example trains Iris above 90 % held-out accuracy, exits cleanly, leaves no process and writes a plot', () => {
    const out = mkdtempSync(join(tmpdir(), 'wiregrad-demo-'));
    const r = runDemo(['--epochs', '12', '--out', out, '--seed', '1']);
    expect(r.status, r.stderr).toBe(0);
    const accs = [...r.stdout.matchAll(/held-out accuracy: ([\d.]+)%/g)].map((m) => Number(m[1]));
    expect(accs).toHaveLength(2);
    for (const a of accs) expect(a).toBeGreaterThanOrEqual(90);
    const pids = /workers: pids ([\d,]+)/.exec(r.stdout)![1]!.split(',').map(Number);
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    const plot = join(out, 'ps-training.svg');
    expect(existsSync(plot)).toBe(true);
    expect(statSync(plot).size).toBeGreaterThan(500);
    expect(r.stdout).toContain('bytes sent per step');
  }, 240_000);

  it('bad input gets a clear message, not a stack trace', () => {
    const r = runDemo(['--workers', 'two']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--workers must be an integer >= 2');
    expect(r.stderr).not.toContain('    at ');
  }, 60_000);
});
