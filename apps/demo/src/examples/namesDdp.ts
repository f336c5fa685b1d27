// `pnpm demo names --ddp`: the character Transformer trained by two data-parallel processes that
// wiregrad-run (@wiregrad/distributed's torchrun) starts with namesDdpRank.ts; their output is the demo's.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DemoConfig } from '../cli.js';

/** Processes of the data-parallel group. */
export const DDP_PROCESSES = 2;

/** wiregrad-run's entry point, beside the package's entry (src/ from sources, dist/ when built). */
function wiregradRun(): string {
  return fileURLToPath(new URL('../bin/wiregrad-run.mjs', import.meta.resolve('@wiregrad/distributed')));
}

/** The wiregrad-run command line that trains `c`'s names model on DDP_PROCESSES processes. */
export function namesDdpArgv(c: DemoConfig): string[] {
  const rank = fileURLToPath(new URL('./namesDdpRank.ts', import.meta.url));
  return [
    wiregradRun(),
    '--standalone',
    '--nproc-per-node',
    String(DDP_PROCESSES),
    rank,
    ...['--steps', String(c.steps), '--batch-size', String(c.batchSize), '--lr', String(c.lr)],
    ...['--seed', String(c.seed), '--out', c.out],
  ];
}

/** Runs the group to its end; resolves to wiregrad-run's exit code (non-zero when a rank failed). */
export function runNamesDdp(c: DemoConfig): Promise<number> {
  if (c.batchSize < DDP_PROCESSES)
    throw new Error(`--ddp splits each batch over ${DDP_PROCESSES} processes: --batch-size must be at least that`);
  // the ranks resolve the workspace packages as this process does (their sources in this repository)
  const conditions = process.execArgv.includes('--conditions=source') ? ' --conditions=source' : '';
  const child = spawn(process.execPath, namesDdpArgv(c), {
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''}${conditions}`.trim() },
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
