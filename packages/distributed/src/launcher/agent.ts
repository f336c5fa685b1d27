import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { type RunArgs, workerEnv } from './args.js';
import { mallocEnv } from './mallocTunables.js';
import { THREADS_WARNING, threadsEnv } from './threadsEnv.js';

/** How a worker of one attempt ended. */
export interface WorkerExit {
  rank: number;
  code: number | null;
  signal: NodeJS.Signals | null;
}

const describe = (e: WorkerExit) =>
  `rank ${e.rank} ${e.signal ? `was killed by ${e.signal}` : `exited with code ${e.code}`}`;

/** A free TCP port of 127.0.0.1 (--standalone's rendezvous). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** node's arguments to run `script`: TypeScript through tsx's loader (this package's own tsx). */
export function nodeArgs(script: string): string[] {
  return /\.[mc]?ts$/.test(script) ? ['--import', import.meta.resolve('tsx'), script] : [script];
}

/** Copies `from` line by line to `to`, each line prefixed with `prefix`. */
function prefixLines(from: NodeJS.ReadableStream, to: NodeJS.WritableStream, prefix: string): void {
  let rest = '';
  from.setEncoding('utf8');
  from.on('data', (d: string) => {
    const lines = (rest + d).split('\n');
    rest = lines.pop()!;
    for (const l of lines) to.write(`${prefix}${l}\n`);
  });
  from.on('end', () => rest && to.write(`${prefix}${rest}\n`));
}

/** The variable @wiregrad/rpc reads its group secret from (authenticated membership). */
export const SECRET_ENV = 'WIREGRAD_GROUP_SECRET';

/**
 * The group secret of a run: the one in the environment if set (several nodes must share one:
 * set it on each, or share the cookie file); else, on a single node, a fresh one for this run, so
 * only this run's workers can join its group; else none (rpc falls back to the user's cookie file).
 */
export function runSecret(a: RunArgs, env: NodeJS.ProcessEnv): Record<string, string> {
  if (env[SECRET_ENV]) return {};
  return a.nnodes === 1 ? { [SECRET_ENV]: randomBytes(32).toString('base64url') } : {};
}

/** Ms a stopped group has to exit after SIGTERM before SIGKILL. */
export const STOP_GRACE_MS = 5000;

/**
 * Note [Restarting the whole group]
 * torchrun's local elastic agent: it starts the node's workers with torchrun's variables, and
 * when one fails (a non-zero exit or a signal) it stops the others (SIGTERM, then SIGKILL after
 * STOP_GRACE_MS) and, while restarts remain, starts the whole group again with
 * TORCHELASTIC_RESTART_COUNT one higher (a fresh rendezvous: the scripts resume from their own
 * checkpoints). On one node it hands its workers a group secret generated for the run
 * (runSecret), and malloc settings for large messages (Note [Large messages and malloc]). Out of restarts, it reports the first failure and exits non-zero. SIGINT,
 * SIGTERM and SIGHUP sent to the launcher go to every worker; the launcher then exits as they do.
 */
export class LocalAgent {
  private children: ChildProcess[] = [];
  private stopping: NodeJS.Signals | null = null;
  readonly runId = randomUUID();
  private readonly secret: Record<string, string>;
  /** WIREGRAD_NUM_THREADS for the workers (Note [One cpu thread per worker]) */
  private readonly threads: Record<string, string>;

  constructor(
    private readonly args: RunArgs,
    private readonly out: NodeJS.WritableStream = process.stdout,
    private readonly err: NodeJS.WritableStream = process.stderr,
  ) {
    this.secret = runSecret(args, process.env);
    this.threads = threadsEnv(args.nprocPerNode, process.env);
  }

  /** Runs the group, restarting it on failure; resolves with the launcher's exit code. */
  async run(): Promise<number> {
    const forward = (signal: NodeJS.Signals) => {
      this.stopping = signal;
      for (const c of this.children) c.kill(signal);
    };
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const s of signals) process.on(s, forward);
    if (this.threads.WIREGRAD_NUM_THREADS !== undefined) this.err.write(THREADS_WARNING);
    try {
      for (let attempt = 0; ; attempt++) {
        const failure = await this.attempt(attempt);
        if (this.stopping) return 128 + (signalNumber(this.stopping) ?? 15);
        if (!failure) return 0;
        if (attempt >= this.args.maxRestarts) {
          this.err.write(
            `[wiregrad-run] worker ${describe(failure)}; no restarts left (--max-restarts ${this.args.maxRestarts})\n`,
          );
          return 1;
        }
        this.err.write(
          `[wiregrad-run] worker ${describe(failure)}; restarting the group (restart ${attempt + 1} of ${this.args.maxRestarts})\n`,
        );
      }
    } finally {
      for (const s of signals) process.off(s, forward);
    }
  }

  /** One attempt: every local worker, until all succeed (null) or the first fails. */
  private async attempt(restartCount: number): Promise<WorkerExit | null> {
    const a = this.args;
    const port = a.masterPort ?? (await freePort());
    let failure: WorkerExit | null = null;
    let stopTimer: NodeJS.Timeout | undefined;
    const exits = Array.from({ length: a.nprocPerNode }, (_, local) => {
      const env = workerEnv(a, local, port, restartCount, this.runId);
      const child = spawn(process.execPath, [...nodeArgs(a.script), ...a.scriptArgs], {
        env: { ...mallocEnv(process.env), ...this.threads, ...process.env, ...this.secret, ...env },
        stdio: ['inherit', 'pipe', 'pipe'],
      });
      this.children.push(child);
      prefixLines(child.stdout!, this.out, `[rank${env.RANK}]: `);
      prefixLines(child.stderr!, this.err, `[rank${env.RANK}]: `);
      return new Promise<void>((resolve) =>
        child.once('close', (code, signal) => {
          if ((code !== 0 || signal) && !failure && !this.stopping) {
            failure = { rank: Number(env.RANK), code, signal };
            for (const c of this.children) if (c !== child && c.exitCode === null) c.kill('SIGTERM');
            stopTimer = setTimeout(
              () => this.children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')),
              STOP_GRACE_MS,
            );
          }
          resolve();
        }),
      );
    });
    await Promise.all(exits);
    clearTimeout(stopTimer);
    this.children = [];
    return failure;
  }
}

function signalNumber(s: NodeJS.Signals): number | undefined {
  return { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[s as string];
}
