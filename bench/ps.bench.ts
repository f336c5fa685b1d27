// The demo's parameter server (`pnpm demo --bench`) beside PyTorch's (bench/torchPsPeer.py):
// aggregate training steps/s with 1, 2 and 4 trainer processes, and each against 1 trainer.
import { fileURLToPath } from 'node:url';
import { freePort } from '@wiregrad/test-helpers';
import { compare, printRows, type Row } from './report.js';
import { output, runTorchScript } from './pythonPeer.js';

const TRAINERS = [1, 2, 4] as const;
const EPOCHS = 1500;
const DEMO = fileURLToPath(new URL('../apps/demo/src/main.ts', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./torchPsPeer.py', import.meta.url));

/** Ours: the demo's own --bench, the median steps/s by trainer count. */
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
  // each round's figures (Note [Interleaved bench rounds] in apps/demo), then the medians below
  for (const line of r.stdout.match(/^round .*$/gm) ?? []) console.log(`  ${line}`);
  return new Map(
    [...r.stdout.matchAll(/^(\d+) trainers?: ([\d.]+) steps\/s in all$/gm)].map((m) => [Number(m[1]), Number(m[2])]),
  );
}

/** PyTorch's, one run per trainer count; `skipped` when no python here has torch. */
function torchStepsPerSec(trainers: number): Promise<{ torch: string; stepsPerSec: number } | { skipped: string }> {
  return runTorchScript(SCRIPT, async () => [String(await freePort()), String(trainers), String(EPOCHS)]);
}

export async function run(): Promise<Row[]> {
  console.log(`\n## parameter server (Iris MLP 4-16-3, batches of 10, ${EPOCHS} epochs, asynchronous updates)`);
  const ours = await oursStepsPerSec();
  const rows: Row[] = [];
  const table: Record<string, string>[] = [];
  let torchOne = NaN;
  for (const n of TRAINERS) {
    const torch = await torchStepsPerSec(n);
    if ('skipped' in torch) {
      console.log(`  PyTorch peer skipped: no python here imports torch (${torch.skipped})`);
      break;
    }
    if (n === 1) torchOne = torch.stepsPerSec;
    const mine = ours.get(n)!;
    table.push({
      trainers: String(n),
      'ours steps/s': mine.toFixed(0),
      'ours vs 1 trainer': `${(mine / ours.get(1)!).toFixed(2)}x`,
      [`PyTorch ${torch.torch} steps/s`]: torch.stepsPerSec.toFixed(0),
      'PyTorch vs 1 trainer': `${(torch.stepsPerSec / torchOne).toFixed(2)}x`,
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
