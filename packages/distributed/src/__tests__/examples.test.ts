import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const file = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const tsBlocks = (path: string) =>
  [...readFileSync(path, 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
const blocks = tsBlocks(file('README.md'));

describe("the README's examples", () => {
  it('are examples/train.ts and examples/collectives.ts verbatim (so tsc checks them)', () => {
    expect(blocks).toEqual([
      readFileSync(file('examples/train.ts'), 'utf8'),
      readFileSync(file('examples/collectives.ts'), 'utf8'),
    ]);
  });

  it("docs/distributed.md's script is examples/train.ts verbatim", () => {
    expect(tsBlocks(file('../../docs/distributed.md'))).toEqual([readFileSync(file('examples/train.ts'), 'utf8')]);
  });

  it('train.ts under wiregrad-run: a rank that crashes, a restart that resumes from the checkpoint, the same model everywhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wiregrad-train-'));
    try {
      const args = [file('bin/wiregrad-run.mjs'), '--nproc-per-node', '2', '--standalone', '--max-restarts', '1'];
      const child = spawn(process.execPath, [...args, file('examples/train.ts')], {
        env: {
          ...process.env,
          NODE_OPTIONS: '--conditions=source',
          CHECKPOINT: join(dir, 'checkpoint.safetensors'),
          EPOCHS: '4',
          CRASH_ONCE_AFTER_EPOCH: '2',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
      const code = await new Promise((resolve) => child.once('close', resolve));
      clearTimeout(timer);
      expect(code, err).toBe(0);
      expect(err).toContain('[wiregrad-run] worker rank 1 exited with code 1; restarting the group (restart 1 of 1)');
      expect(out).toContain('[rank0]: resumed after epoch 2\n');
      expect(out).toContain('[rank1]: resumed after epoch 2\n');
      expect(out.match(/^\[rank0\]: epoch \d/gm)).toEqual([
        '[rank0]: epoch 1',
        '[rank0]: epoch 2',
        '[rank0]: epoch 3',
        '[rank0]: epoch 4',
      ]);
      const accuracy = [0, 1].map((r) =>
        Number(new RegExp(`^\\[rank${r}\\]: accuracy ([\\d.]+) %$`, 'm').exec(out)?.[1]),
      );
      expect(accuracy[1]).toBe(accuracy[0]);
      expect(accuracy[0]).toBeGreaterThan(90);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
