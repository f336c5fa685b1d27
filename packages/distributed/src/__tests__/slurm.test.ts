import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { runProcess } from '@wiregrad/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SlurmCluster, ensureSlurm, startSlurm } from './slurmCluster.js';

const packageDir = fileURLToPath(new URL('../../', import.meta.url));
const script = fileURLToPath(new URL('./fixtures/slurmDdp.mjs', import.meta.url));

// Debian's slurm-wlm and munge, installed with apt where missing (root); without them the spec says why and skips
const unavailable = await ensureSlurm();
if (unavailable) console.warn(`slurm.test.ts skipped: ${unavailable}`);

interface TaskLine {
  rank: number;
  world: number;
  localRank: number;
  storeAddress: string;
  jobId: string;
  digest: string;
  parityMaxDiff: number | null;
}

describe.skipIf(unavailable !== null)('under Slurm: srun -n 2 on a one-node cluster of this machine', () => {
  let cluster: SlurmCluster;
  beforeAll(async () => {
    cluster = await startSlurm();
  }, 90_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 30_000);

  it("initProcessGroup() takes Slurm's variables, and DDP on the 2 tasks equals one process on the whole batch", async () => {
    const env: NodeJS.ProcessEnv = {
      ...cluster.env,
      // in this repository the packages run from their TypeScript sources
      NODE_OPTIONS: '--conditions=source --import tsx',
      // srun hands its environment to the tasks: the group's secret, and no torchrun variables
      WIREGRAD_GROUP_SECRET: randomBytes(32).toString('base64url'),
      RANK: undefined,
      WORLD_SIZE: undefined,
      LOCAL_RANK: undefined,
      MASTER_ADDR: undefined,
      MASTER_PORT: undefined,
    };
    const run = await runProcess('/usr/bin/srun', ['-n', '2', process.execPath, script], {
      cwd: packageDir,
      env,
      timeoutMs: 120_000,
    });
    expect(run.status, `srun: ${run.stderr}\n${cluster.logs()}`).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as TaskLine)
      .sort((a, b) => a.rank - b.rank);
    expect(lines.map((l) => [l.rank, l.world, l.localRank])).toEqual([
      [0, 2, 0],
      [1, 2, 1],
    ]);
    // the first job's id; the master is the node list's first host, the port 15000 + the id's last 4 digits
    const jobId = cluster.firstJobId;
    for (const l of lines) {
      expect(l.jobId).toBe(String(jobId));
      expect(l.storeAddress).toBe(`tcp://${cluster.node}:${15_000 + jobId}`);
    }
    expect(lines[1]!.digest).toBe(lines[0]!.digest);
    expect(lines[0]!.parityMaxDiff).toBeLessThan(1e-5);
  }, 150_000);
});
