import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PYTHON = '/usr/bin/python3';
const GLOO = 'import torch.distributed as d; assert d.is_available() and d.is_gloo_available()';

/** PyTorch with gloo, installed from Debian where this runs as root with apt (CI does); else why not. */
function torchPeer(): string | null {
  if (spawnSync(PYTHON, ['-c', GLOO]).status === 0) return null;
  if (process.getuid?.() !== 0 || spawnSync('which', ['apt-get']).status !== 0)
    return 'PyTorch with gloo is not installed and this is not root with apt (apt-get install python3-torch)';
  spawnSync(
    'apt-get',
    ['install', '-y', '-qq', '-o', 'DPkg::Lock::Timeout=300', 'python3-torch', 'libopenblas0-pthread'],
    {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: 'ignore',
      timeout: 600_000,
    },
  );
  return spawnSync(PYTHON, ['-c', GLOO]).status === 0 ? null : 'apt-get could not install python3-torch';
}

interface Row {
  case: string;
  oursMs: number;
  peerMs: number;
  speedup: number;
}

const missing = torchPeer();
if (missing) console.warn(`[benchSmoke] skipped: ${missing}`);

describe('pnpm bench distributed (a quick run, BENCH_QUICK=1)', () => {
  it.skipIf(missing !== null)(
    'times all-reduce and DDP side by side with torch.distributed on gloo and prints their ratios',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wg-bench-'));
      try {
        const out = join(dir, 'rows.json');
        const code = await new Promise<number | null>((resolve) => {
          const child = spawn(
            process.execPath,
            ['--conditions=source', '--import', 'tsx', 'bench/index.ts', 'distributed'],
            {
              cwd: ROOT,
              env: { ...process.env, BENCH_QUICK: '1', BENCH_JSON: out },
              stdio: 'ignore',
            },
          );
          child.once('close', resolve);
        });
        expect(code).toBe(0);
        const rows = JSON.parse(readFileSync(out, 'utf8')) as Row[];
        expect(rows.map((r) => r.case)).toEqual([
          'all-reduce 8 B float32, 2 processes',
          'all-reduce 4 MiB float32, 2 processes',
          'DDP 784-256-10 2 processes, batch 64 each',
        ]);
        for (const r of rows) {
          for (const v of [r.oursMs, r.peerMs, r.speedup]) {
            expect(Number.isFinite(v)).toBe(true);
            expect(v).toBeGreaterThan(0);
          }
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
