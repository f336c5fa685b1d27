// A PyTorch script run to its end as a benchmark peer: the first python here that runs it, and
// the JSON object on its last line of output.
import { spawn } from 'node:child_process';
import { CHILD_ENV, PYTHONS } from './torchPeer.js';

/** Runs a command to its end: its stdout, or why it failed (its exit and last line of stderr). */
export function output(
  cmd: string,
  args: string[],
  env = process.env,
): Promise<{ stdout: string } | { error: string }> {
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

/**
 * Runs `script args` with each python that might have torch until one answers with a JSON
 * line holding a `torch` version; `skipped` says why none did (a line `{"error": ...}`, or
 * the process's own failure).
 */
export async function runTorchScript<T extends { torch: string }>(
  script: string,
  args: () => Promise<string[]>,
): Promise<T | { skipped: string }> {
  const reasons: string[] = [];
  for (const python of PYTHONS) {
    const r = await output(python, [script, ...(await args())], CHILD_ENV);
    const line = 'error' in r ? JSON.stringify({ error: r.error }) : (r.stdout.trim().split('\n').pop() ?? '');
    let parsed: Partial<T> & { error?: string };
    try {
      parsed = JSON.parse(line) as Partial<T> & { error?: string };
    } catch {
      parsed = { error: `no JSON answer: ${line.slice(0, 200)}` } as Partial<T> & { error?: string };
    }
    if (parsed.error === undefined && parsed.torch !== undefined) return parsed as T;
    reasons.push(`${python}: ${parsed.error}`);
  }
  return { skipped: reasons.join('; ') };
}
