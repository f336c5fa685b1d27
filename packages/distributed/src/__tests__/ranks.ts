import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type BundledFixtures, bundleFixtures, freePort } from '@wiregrad/test-helpers';

const packageDir = fileURLToPath(new URL('../../', import.meta.url));
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const bundles = new Map<string, Promise<BundledFixtures>>();

/**
 * rankMain.ts and the scenario, bundled once per scenario in a spec file: each rank then starts
 * in a fraction of the cpu that loading the sources through tsx costs (Note [Bundled fixtures]).
 */
function bundleOf(name: string): Promise<BundledFixtures> {
  let b = bundles.get(name);
  if (!b)
    bundles.set(
      name,
      (b = bundleFixtures({ rankMain: here('./rankMain.ts'), [name]: here(`./scenarios/${name}.ts`) })),
    );
  return b;
}

/** How one rank's process ended and what its scenario returned. */
export interface RankRun {
  rank: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** what `run()` returned (null if the process printed no result) */
  result: unknown;
  stderr: string;
  /** ms from spawn to exit */
  ms: number;
}

export interface RanksOptions {
  /** passed to every rank's run() */
  extra?: unknown;
  /** SIGKILL every rank still running after this many ms (default 60 s) */
  timeoutMs?: number;
  /** a rank that is expected never to exit (it stops itself): SIGKILLed once every other rank has exited */
  hangs?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs `scenarios/<name>.ts` in `worldSize` node processes, each a rank of a real process group
 * on ZeroMQ sockets: torchrun's variables (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR,
 * MASTER_PORT on a free port) are set as wiregrad-run sets them, and rankMain.ts prints what
 * the scenario's run() returned. Resolves when every process has exited.
 */
export async function runRanks(name: string, worldSize: number, opts: RanksOptions = {}): Promise<RankRun[]> {
  const port = await freePort();
  const bundle = await bundleOf(name);
  const [main, scenario] = [bundle.file('rankMain'), bundle.file(name)];
  const children: ReturnType<typeof spawn>[] = [];
  let running = worldSize;
  return Promise.all(
    Array.from({ length: worldSize }, (_, rank) => {
      const t0 = performance.now();
      const child = spawn(process.execPath, [main, scenario], {
        cwd: packageDir,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          ...opts.env,
          RANK: String(rank),
          LOCAL_RANK: String(rank),
          WORLD_SIZE: String(worldSize),
          MASTER_ADDR: '127.0.0.1',
          MASTER_PORT: String(port),
          SCENARIO_EXTRA: JSON.stringify(opts.extra ?? null),
        },
      });
      children[rank] = child;
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
      return new Promise<RankRun>((resolve) =>
        child.once('close', (code, signal) => {
          clearTimeout(timer);
          if (--running === 1 && opts.hangs !== undefined && rank !== opts.hangs) children[opts.hangs]!.kill('SIGKILL');
          const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
          let result: unknown = null;
          try {
            result = line ? (JSON.parse(line.slice(7)) as unknown) : null;
          } catch (e) {
            stderr += `\nits RESULT line is not JSON: ${(e as Error).message}`;
          }
          resolve({
            rank,
            code,
            signal,
            result,
            stderr,
            ms: performance.now() - t0,
          });
        }),
      );
    }),
  );
}
