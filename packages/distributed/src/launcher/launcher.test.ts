import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRunArgs, workerEnv } from './args.js';
import { runSecret } from './agent.js';
import { MALLOC_TUNABLES, mallocEnv } from './mallocTunables.js';
import { THREADS_WARNING, threadsEnv } from './threadsEnv.js';

const bin = fileURLToPath(new URL('../../bin/wiregrad-run.mjs', import.meta.url));
const script = fileURLToPath(new URL('../__tests__/fixtures/launched.ts', import.meta.url));

interface Launch {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs wiregrad-run with `args`; `onLine` sees each stdout line as it comes (with the child process). */
function launch(args: string[], onLine: (line: string, pid: number) => void = () => {}): Promise<Launch> {
  return new Promise((resolve) => {
    // the workspace packages resolve to their sources, as in every spec
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, NODE_OPTIONS: '--conditions=source' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 80_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      const before = stdout.length;
      stdout += d;
      const fresh = stdout.slice(stdout.lastIndexOf('\n', before - 1) + 1);
      for (const l of fresh.split('\n').slice(0, -1)) onLine(l, child.pid!);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('wiregrad-run (torchrun)', () => {
  it("parses torchrun's flags, either spelling, up to the script", () => {
    expect(
      parseRunArgs([
        '--nproc_per_node=4',
        '--nnodes',
        '2',
        '--node-rank=1',
        '--master-addr',
        'h',
        'train.ts',
        '--lr',
        '1',
      ]),
    ).toEqual({
      nprocPerNode: 4,
      nnodes: 2,
      nodeRank: 1,
      masterAddr: 'h',
      masterPort: 29500,
      maxRestarts: 0,
      standalone: false,
      script: 'train.ts',
      scriptArgs: ['--lr', '1'],
    });
    expect(parseRunArgs(['--standalone', 'x.js'])).toMatchObject({ masterAddr: '127.0.0.1', masterPort: null });
    expect(() => parseRunArgs(['--nproc-per-node', 'x.ts'])).toThrow(/must be a non-negative integer/);
    expect(() => parseRunArgs(['--bogus', '1', 'x.ts'])).toThrow(/unknown option --bogus/);
    expect(() => parseRunArgs(['--nnodes', '2', '--node-rank', '2', 'x.ts'])).toThrow(
      /--node-rank must be in \[0, 2\)/,
    );
    expect(() => parseRunArgs(['--standalone', '--nnodes', '2', 'x.ts'])).toThrow(/--standalone runs a single node/);
  });

  it("sets torchrun's variables for each worker", () => {
    const a = parseRunArgs([
      '--nproc-per-node',
      '2',
      '--nnodes',
      '3',
      '--node-rank',
      '2',
      '--max-restarts',
      '4',
      'x.ts',
    ]);
    expect(workerEnv(a, 1, 1234, 2, 'run')).toEqual({
      RANK: '5',
      LOCAL_RANK: '1',
      WORLD_SIZE: '6',
      LOCAL_WORLD_SIZE: '2',
      GROUP_RANK: '2',
      ROLE_RANK: '5',
      ROLE_WORLD_SIZE: '6',
      MASTER_ADDR: '127.0.0.1',
      MASTER_PORT: '1234',
      TORCHELASTIC_RESTART_COUNT: '2',
      TORCHELASTIC_MAX_RESTARTS: '4',
      TORCHELASTIC_RUN_ID: 'run',
    });
  });

  it('hands a single node a group secret of its own for each run; several nodes share the one in the environment', () => {
    const one = parseRunArgs(['x.ts']);
    const a = runSecret(one, {}).WIREGRAD_GROUP_SECRET;
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(runSecret(one, {}).WIREGRAD_GROUP_SECRET).not.toBe(a);
    expect(runSecret(one, { WIREGRAD_GROUP_SECRET: 's' })).toEqual({});
    expect(runSecret(parseRunArgs(['--nnodes', '2', 'x.ts']), {})).toEqual({});
  });

  it("sets glibc's malloc thresholds for large messages unless the environment sets GLIBC_TUNABLES", () => {
    expect(mallocEnv({})).toEqual({ GLIBC_TUNABLES: MALLOC_TUNABLES });
    expect(mallocEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' })).toEqual({});
  });

  it('gives each worker one cpu thread when a node runs several, unless the environment sets WIREGRAD_NUM_THREADS, as torchrun does with OMP_NUM_THREADS', () => {
    expect(threadsEnv(2, {})).toEqual({ WIREGRAD_NUM_THREADS: '1' });
    expect(threadsEnv(2, { WIREGRAD_NUM_THREADS: '2' })).toEqual({});
    expect(threadsEnv(1, {})).toEqual({});
  });

  it('runs a .ts script on every rank, each line prefixed with its rank', async () => {
    const r = await launch(['--nproc-per-node', '2', '--standalone', script, 'ok']);
    expect(r.code, r.stderr).toBe(0);
    for (const rank of [0, 1])
      expect(r.stdout).toContain(
        `[rank${rank}]: sum 3 restart 0 RANK=${rank} LOCAL_RANK=${rank} WORLD_SIZE=2 LOCAL_WORLD_SIZE=2 GROUP_RANK=0 TORCHELASTIC_MAX_RESTARTS=0\n`,
      );
    expect(r.stdout).toContain('[rank0]: secret 43\n'); // the run's own group secret
    // See Note [Large messages and malloc] (the spec's own environment does not set GLIBC_TUNABLES)
    expect(r.stdout).toContain(`[rank1]: malloc ${MALLOC_TUNABLES}\n`);
    // See Note [One cpu thread per worker] (the spec's own environment does not set WIREGRAD_NUM_THREADS)
    expect(r.stdout).toContain('[rank0]: threads 1\n');
    expect(r.stderr.split(THREADS_WARNING)).toHaveLength(2);
    expect(r.stderr).toContain('[rank0]: done\n');
    expect(r.stderr).toContain('[rank1]: done\n');
  }, 90_000);

  it('a worker killed by SIGKILL: the group stops and starts again while --max-restarts remain', async () => {
    let killed = false;
    const r = await launch(['--nproc-per-node', '2', '--standalone', '--max-restarts', '1', script, 'hang'], (line) => {
      const m = /^\[rank1\]: pid (\d+)$/.exec(line);
      if (m && !killed) {
        killed = true;
        process.kill(Number(m[1]), 'SIGKILL');
      }
    });
    expect(killed).toBe(true);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      '[wiregrad-run] worker rank 1 was killed by SIGKILL; restarting the group (restart 1 of 1)',
    );
    for (const rank of [0, 1]) {
      expect(r.stdout).toContain(`[rank${rank}]: sum 3 restart 0 `);
      expect(r.stdout).toContain(`[rank${rank}]: sum 3 restart 1 `);
    }
  }, 90_000);

  it('forwards SIGTERM to every worker and exits as they do', async () => {
    const pids: number[] = [];
    const r = await launch(['--nproc-per-node', '2', '--standalone', script, 'hang'], (line, launcher) => {
      const m = /^\[rank\d\]: pid (\d+)$/.exec(line);
      if (m) pids.push(Number(m[1]));
      if (m && pids.length === 2) process.kill(launcher, 'SIGTERM');
    });
    expect(r.code).toBe(128 + 15);
    expect(r.stderr).not.toContain('restarting');
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  }, 90_000);

  it('out of restarts: exits non-zero and reports the first failure', async () => {
    const r = await launch(['--nproc-per-node', '2', '--standalone', script, 'fail']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[wiregrad-run] worker rank 1 exited with code 3; no restarts left (--max-restarts 0)');
  }, 90_000);
});
