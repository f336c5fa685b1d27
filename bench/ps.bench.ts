// The demo's parameter server (`pnpm demo --bench`) beside PyTorch's (bench/torchPsPeer.py):
// aggregate training steps/s with 1, 2 and 4 trainer processes, and each against 1 trainer.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@wiregrad/test-helpers';
import { compare, printRows, type Row } from './report.js';
import { CHILD_ENV, PYTHONS } from './torchPeer.js';

const TRAINERS = [1, 2, 4] as const;
const EPOCHS = 1500;
const DEMO = fileURLToPath(new URL('../apps/demo/src/main.ts', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./torchPsPeer.py', import.meta.url));

/** Runs a command to its end; its stdout, or why it failed. */
function output(cmd: string, args: string[], env = process.env): Promise<{ stdout: string } | { error: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', (e) => resolve({ error: e.message }));
    child.once('exit', (code) =>
      resolve(code === 0 ? { stdout } : { error: `exited with ${code}: ${stderr.trim().split('\n').pop() ?? ''}` }),
    );
  });
}

/** Ours: the demo's own --bench, steps/s by trainer count. */
async function oursStepsPerSec(): Promise<Map<number, number>> {
  const r = await output(process.execPath, [
    '--conditions=source',
    '--import',
    'tsx',
    DEMO,
    '--bench',
    '--epochs',
    String(EPOCHS),
  ]);
  if ('error' in r) throw new Error(`pnpm demo --bench ${r.error}`);
  return new Map(
    [...r.stdout.matchAll(/^(\d+) trainers?: ([\d.]+) steps\/s in all$/gm)].map((m) => [Number(m[1]), Number(m[2])]),
  );
}

/** PyTorch's, one run per trainer count; null with why when no python here has torch. */
async function torchStepsPerSec(
  trainers: number,
): Promise<{ torch: string; stepsPerSec: number } | { skipped: string }> {
  const reasons: string[] = [];
  for (const python of PYTHONS) {
    const r = await output(python, [SCRIPT, String(await freePort()), String(trainers), String(EPOCHS)], CHILD_ENV);
    const line = 'error' in r ? JSON.stringify({ error: r.error }) : (r.stdout.trim().split('\n').pop() ?? '');
    const parsed = JSON.parse(line) as { torch?: string; stepsPerSec?: number; error?: string };
    if (parsed.torch !== undefined && parsed.stepsPerSec !== undefined)
      return { torch: parsed.torch, stepsPerSec: parsed.stepsPerSec };
    reasons.push(`${python}: ${parsed.error}`);
  }
  return { skipped: reasons.join('; ') };
}

export async function run(): Promise<Row[]> {
  console.log(`\n## parameter server (Iris MLP 4-16-3, batches of 10, ${EPOCHS} epochs, asynchronous updates)`);
  const ours = await oursStepsPerSec();
  const rows: Row[] = [];
  const table: Record<string, string>[] = [];
  for (const n of TRAINERS) {
    const torch = await torchStepsPerSec(n);
    if ('skipped' in torch) {
      console.log(`  PyTorch peer skipped: no python here imports torch (${torch.skipped})`);
      break;
    }
    const mine = ours.get(n)!;
    table.push({
      trainers: String(n),
      'ours steps/s': mine.toFixed(0),
      'ours vs 1 trainer': `${(mine / ours.get(1)!).toFixed(2)}x`,
      [`PyTorch ${torch.torch} steps/s`]: torch.stepsPerSec.toFixed(0),
      'PyTorch vs 1 trainer': `${(torch.stepsPerSec / Number(table[0]?.[`PyTorch ${torch.torch} steps/s`] ?? torch.stepsPerSec)).toFixed(2)}x`,
    });
    rows.push(
      compare(
        `parameter server, ${n} trainer${n > 1 ? 's' : ''} (ms per step)`,
        ['demo ps', 1000 / mine],
        ['PyTorch', 1000 / torch.stepsPerSec],
        0,
      ),
    );
  }
  console.table(table);
  const two = (ours.get(2) ?? NaN) / (ours.get(1) ?? NaN);
  console.log(`  target: 2 trainers >= 1.5x the steps/s of 1 (ours ${two.toFixed(2)}x)`);
  printRows('parameter server', rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
