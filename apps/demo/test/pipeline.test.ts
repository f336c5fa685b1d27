import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alive, runDemo } from './runDemo.js';

describe('pnpm demo pipeline (real processes, real ZeroMQ)', () => {
  it('the layers split over two workers train exactly as one process does, above 90 % held-out; the plot lands under --out relative to where pnpm started', async () => {
    const started = mkdtempSync(join(tmpdir(), 'wiregrad-pipeline-'));
    // pnpm runs the demo in apps/demo and says in INIT_CWD where the user started it
    const r = await runDemo(['pipeline', '--epochs', '12', '--seed', '1', '--out', 'plots'], 240_000, {
      INIT_CWD: started,
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('wiregrad demo: model parallel pipeline, 3 processes');
    for (let epoch = 1; epoch <= 12; epoch++)
      expect(r.stdout).toMatch(new RegExp(`\\[driver\\] epoch ${epoch}/12 loss [\\d.]+ \\(one process: [\\d.]+\\)`));
    // seeded, and one driver: the same network in one process gives the same losses
    const diff = /largest per-epoch loss difference ([\d.e+-]+) \(float32 tolerance 1e-5: match\)/.exec(r.stdout);
    expect(diff, r.stdout).not.toBeNull();
    expect(Number(diff![1])).toBeLessThan(1e-5);
    const acc = /\[driver\] held-out accuracy: ([\d.]+)%/.exec(r.stdout);
    expect(Number(acc![1])).toBeGreaterThanOrEqual(90); // 100 % with this seed
    const pids = /workers: pids ([\d,]+)/.exec(r.stdout)![1]!.split(',').map(Number);
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(alive(pid)).toBe(false);

    const plot = join(started, 'plots', 'pipeline-training.svg');
    expect(r.stdout).toContain(`plot: ${plot}\n`);
    expect(existsSync(plot)).toBe(true);
    const legends = [...readFileSync(plot, 'utf8').matchAll(/aria-label="(Symbol legend [^"]*)"/g)].map((m) => m[1]);
    expect(legends.slice(0, 2)).toEqual([
      "Symbol legend titled 'worker' for stroke color with 2 values: driver, one process",
      "Symbol legend titled 'curve' for strokeDash with 2 values: loss, reference loss",
    ]);
  }, 240_000);
});
