// PyTorch as a peer: bench/torchPeer.py in a child process, timing its cases one call at a time.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./torchPeer.py', import.meta.url));
/**
 * OpenMP's default wait policy spins its idle threads, which on a shared 2-core machine take
 * the core the next call (ours or its own) needs: an add of 1M on 2 threads measured 6.9 ms
 * spinning and 0.49 ms passive. PyTorch runs here with OMP_WAIT_POLICY=PASSIVE unless set.
 */
export const CHILD_ENV = { ...process.env, OMP_WAIT_POLICY: process.env.OMP_WAIT_POLICY ?? 'PASSIVE' };
/** Debian's python3-torch lives under /usr/bin/python3; a pyenv (or venv) python3 on PATH may not have it. */
export const PYTHONS = [process.env.WIREGRAD_BENCH_PYTHON, '/usr/bin/python3', 'python3'].filter(
  (p): p is string => !!p,
);

export type TorchCase = 'matmul512' | 'matmul1024' | 'add' | 'exp' | 'chain' | 'mlp';

export class TorchPeer {
  private readonly lines: AsyncIterator<string>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly version: string,
    readonly python: string,
    lines: AsyncIterator<string>,
  ) {
    this.lines = lines;
  }

  /** The first python that imports torch, or null with why each candidate failed. */
  static async start(): Promise<TorchPeer | { skipped: string }> {
    const reasons: string[] = [];
    for (const python of PYTHONS) {
      const child = spawn(python, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'], env: CHILD_ENV });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const failed = new Promise<string>((resolve) => {
        child.once('error', (e) => resolve(e.message));
        child.once('exit', (code) => resolve(`exited with ${code}: ${stderr.trim().split('\n').pop() ?? ''}`));
      });
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const first = lines.next().then((r) => (r.done ? null : r.value));
      const outcome = await Promise.race([first, failed]);
      if (outcome !== null && outcome.startsWith('ready '))
        return new TorchPeer(child, outcome.slice(6), python, lines);
      reasons.push(`${python}: ${outcome ?? 'no answer'}`);
      child.kill();
    }
    return { skipped: reasons.join('; ') };
  }

  /** Runs `kase` once on `threads` intra-op threads; resolves to the milliseconds PyTorch measured. */
  async time(kase: TorchCase, threads: number): Promise<number> {
    this.child.stdin.write(`${kase} ${threads}\n`);
    const r = await this.lines.next();
    if (r.done) throw new Error('the PyTorch peer exited');
    if (r.value.startsWith('error ')) throw new Error(`PyTorch peer, ${kase}: ${r.value.slice(6)}`);
    return Number(r.value);
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}
