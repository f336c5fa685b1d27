// The README's test command (`pnpm test`): the static checks (the root `typecheck` and `lint`
// scripts, in that order) and `vitest run` (every project), at the same time; exits non-zero if
// either fails. Extra arguments go to vitest. Usage: node scripts/test.mjs [vitest args]
//
// Note [Static checks beside the specs]
// The static checks are cpu-bound (tsc, eslint, prettier: minutes of cpu, fewer since
// Note [Type-checked by TypeScript 7]) and the specs mostly wait (on child processes, heartbeats
// and timeouts; Note [Spec workers] in vitest.config.ts): one after the other they took 6 + 15
// minutes on 2 shared cores (load 6-21). Side by side, the
// checks run at a lower priority (nice 10), so they take the cpu the specs leave idle rather
// than slowing the specs' timed waits; their output is held and printed when they end, so
// vitest's report is not interleaved with it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

/** Resolves with the exit code (1 for a signal). */
const exited = (child) => new Promise((resolve) => child.once('close', (code) => resolve(code ?? 1)));

const checks = spawn(`${scripts.typecheck} && ${scripts.lint}`, {
  cwd: ROOT,
  shell: true,
  stdio: ['ignore', 'pipe', 'pipe'],
});
try {
  setPriority(checks.pid, 10);
} catch {
  // not permitted here: the checks run at the specs' priority
}
let checksOut = '';
checks.stdout.setEncoding('utf8').on('data', (d) => (checksOut += d));
checks.stderr.setEncoding('utf8').on('data', (d) => (checksOut += d));
const checksDone = exited(checks).then((code) => {
  process.stdout.write(
    `\n── static checks (typecheck, lint) ${code === 0 ? 'passed' : 'FAILED'} after ${seconds()} ──\n${checksOut}\n`,
  );
  return code;
});

const vitest = spawn(
  process.execPath,
  [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)],
  {
    cwd: ROOT,
    stdio: 'inherit',
  },
);
const vitestCode = await exited(vitest);
process.stdout.write(`── vitest ${vitestCode === 0 ? 'passed' : 'FAILED'} after ${seconds()} ──\n`);
const checksCode = await checksDone;
process.stdout.write(
  `pnpm test: static checks ${checksCode === 0 ? 'passed' : 'FAILED'}, specs ${vitestCode === 0 ? 'passed' : 'FAILED'} (${seconds()})\n`,
);
process.exitCode = checksCode === 0 && vitestCode === 0 ? 0 : 1;
