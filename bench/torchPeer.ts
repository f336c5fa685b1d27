// PyTorch as a peer: bench/torchPeer.py in a child process per thread count, timing blocks of calls.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./torchPeer.py', import.meta.url));
/**
 * OpenMP's default wait policy spins its idle threads, which on a shared 2-core machine take
 * the core the next call (ours or its own) needs: an add of 1M on 2 threads measured over ten
 * times slower spinning than passive. PyTorch runs here with OMP_WAIT_POLICY=PASSIVE unless set.
 */
export const CHILD_ENV = { ...process.env, OMP_WAIT_POLICY: process.env.OMP_WAIT_POLICY ?? 'PASSIVE' };
/** Debian's python3-torch lives under /usr/bin/python3; a pyenv (or venv) python3 on PATH may not have it. */
export const PYTHONS = [process.env.WIREGRAD_BENCH_PYTHON, '/usr/bin/python3', 'python3'].filter(
  (p): p is string => !!p,
);

export type TorchCase = 'matmul512' | 'matmul1024' | 'add' | 'add_' | 'exp' | 'chain' | 'mlp' | 'lstm' | 'encoderLayer';

export class TorchPeer {
  private readonly lines: AsyncIterator<string>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly version: string,
    readonly python: string,
    readonly threads: number,
    lines: AsyncIterator<string>,
  ) {
    this.lines = lines;
  }

  /**
   * The first python that imports torch, running on `threads` threads (torch's intra-op pool
   * and OpenBLAS's, both sized through the environment before torch loads and again by the
   * script), or why each candidate failed.
   */
  static async start(threads: number): Promise<TorchPeer | { skipped: string }> {
    const reasons: string[] = [];
    const env = { ...CHILD_ENV, OMP_NUM_THREADS: String(threads), OPENBLAS_NUM_THREADS: String(threads) };
    for (const python of PYTHONS) {
      const child = spawn(python, [SCRIPT, String(threads)], { stdio: ['pipe', 'pipe', 'pipe'], env });
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
        return new TorchPeer(child, outcome.slice(6), python, threads, lines);
      reasons.push(`${python}: ${outcome ?? 'no answer'}`);
      child.kill();
    }
    return { skipped: reasons.join('; ') };
  }

  /** Runs `kase` `calls` times in a row; resolves to the milliseconds PyTorch measured for each call. */
  async block(kase: TorchCase, calls: number): Promise<number[]> {
    this.child.stdin.write(`${kase} ${calls}\n`);
    const r = await this.lines.next();
    if (r.done) throw new Error('the PyTorch peer exited');
    if (r.value.startsWith('error ')) throw new Error(`PyTorch peer, ${kase}: ${r.value.slice(6)}`);
    return r.value.split(' ').map(Number);
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}
