import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, runProcess, sleep } from '@wiregrad/test-helpers';

/** The programs a one-node cluster needs, where Debian's slurm-wlm and munge put them. */
const PROGRAMS = ['/usr/sbin/munged', '/usr/sbin/slurmctld', '/usr/sbin/slurmd', '/usr/bin/srun', '/usr/bin/sinfo'];

const tail = (s: string) => s.trim().split('\n').slice(-3).join(' / ');

/**
 * Installs Debian's slurm-wlm and munge with apt where they are missing (root only; nothing but
 * Debian's mirror is reached, and only when the package lists must be refreshed). Resolves null
 * when the programs are there, else why they cannot be: the spec prints it and skips.
 */
export async function ensureSlurm(): Promise<string | null> {
  if (PROGRAMS.every((p) => existsSync(p))) return null;
  if (process.getuid?.() !== 0) return 'slurm-wlm and munge are not installed, and installing them needs root';
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    runProcess(
      'apt-get',
      ['-o', 'DPkg::Lock::Timeout=180', 'install', '-y', '--no-install-recommends', 'slurm-wlm', 'munge'],
      { env, timeoutMs: 600_000 },
    );
  let run = await install();
  if (run.status !== 0) {
    // the package lists may be stale or absent (a fresh container): refresh them once
    await runProcess('apt-get', ['-o', 'DPkg::Lock::Timeout=180', 'update'], { env, timeoutMs: 300_000 });
    run = await install();
  }
  if (run.status !== 0) return `apt-get install slurm-wlm munge failed (${run.status}): ${tail(run.stderr)}`;
  const missing = PROGRAMS.filter((p) => !existsSync(p));
  return missing.length > 0 ? `apt-get installed slurm-wlm and munge, but ${missing.join(', ')} are missing` : null;
}

/** Whether a server can listen on `port` of every interface now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, () => srv.close(() => resolve(true)));
  });
}

/** A port in [15001, 24999] nothing listens on: 15000 + the first job's id (Note [Slurm master port]). */
async function freeJobPort(): Promise<number> {
  for (;;) {
    const port = randomInt(15_001, 25_000);
    if (await canListen(port)) return port;
  }
}

/** A one-node Slurm cluster of this machine, its files in a temp dir; `stop()` leaves nothing behind. */
export interface SlurmCluster {
  /** the node's name (this machine's short hostname) */
  node: string;
  /** the id slurmctld gives the first job (FirstJobId) */
  firstJobId: number;
  /** the environment srun and sinfo need (SLURM_CONF) */
  env: NodeJS.ProcessEnv;
  /** the daemons' logs, for a failing spec's message */
  logs(): string;
  stop(): Promise<void>;
}

/**
 * Starts munged, slurmctld and slurmd in the foreground as children of this process, every file
 * of theirs (key, socket, pids, state, spool, logs) under a fresh temp dir: one node of this
 * machine's hostname with CPUs=2, ReturnToService=2, select/cons_tres, one default partition
 * with OverSubscribe=FORCE, free ports for SlurmctldPort and SlurmdPort. Resolves once sinfo
 * says the node is idle.
 */
export async function startSlurm(): Promise<SlurmCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'wiregrad-slurm-'));
  chmodSync(dir, 0o755); // munged wants its socket's directory searchable by all
  const children: ChildProcess[] = [];
  const node = hostname().split('.')[0]!;
  const [ctldPort, slurmdPort] = await freePorts(2);
  const jobPort = await freeJobPort();
  const firstJobId = jobPort - 15_000;
  const conf = join(dir, 'slurm.conf');
  const env = { SLURM_CONF: conf };
  for (const d of ['state', 'spool']) mkdirSync(join(dir, d));
  writeFileSync(join(dir, 'munge.key'), Buffer.from(Array.from({ length: 1024 }, () => randomInt(256))), {
    mode: 0o400,
  });
  writeFileSync(
    conf,
    [
      'ClusterName=wiregrad',
      `SlurmctldHost=${node}`,
      `SlurmctldPort=${ctldPort}`,
      `SlurmdPort=${slurmdPort}`,
      'SlurmUser=root',
      'SlurmdUser=root',
      'AuthType=auth/munge',
      'CredType=cred/munge',
      `AuthInfo=socket=${join(dir, 'munge.socket')}`,
      `StateSaveLocation=${join(dir, 'state')}`,
      `SlurmdSpoolDir=${join(dir, 'spool')}`,
      `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`,
      `SlurmdPidFile=${join(dir, 'slurmd.pid')}`,
      `SlurmctldLogFile=${join(dir, 'slurmctld.log')}`,
      `SlurmdLogFile=${join(dir, 'slurmd.log')}`,
      'MailProg=/bin/true',
      'ProctrackType=proctrack/linuxproc',
      'TaskPlugin=task/none',
      'MpiDefault=none',
      'ReturnToService=2',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_Core',
      'JobCompType=jobcomp/none',
      'JobAcctGatherType=jobacct_gather/none',
      'AccountingStorageType=accounting_storage/none',
      // the VM's reported sockets and cores may differ from CPUs=2: the node must not drain for it
      'SlurmdParameters=config_overrides',
      `FirstJobId=${firstJobId}`,
      `NodeName=${node} CPUs=2 State=UNKNOWN`,
      `PartitionName=wiregrad Nodes=${node} Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE`,
      '',
    ].join('\n'),
  );
  const daemon = (cmd: string, args: string[], out: string) => {
    const fd = openSync(join(dir, out), 'a');
    children.push(spawn(cmd, args, { stdio: ['ignore', fd, fd], env: { ...process.env, ...env } }));
  };
  const logs = () =>
    ['munged.log', 'slurmctld.log', 'slurmd.log']
      .map((f) => (existsSync(join(dir, f)) ? `--- ${f}\n${readFileSync(join(dir, f), 'utf8').slice(-3000)}` : ''))
      .join('\n');
  const stop = async () => {
    // slurmd first (it ends the steps it still runs), then slurmctld, then munged
    for (const child of children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    daemon(
      '/usr/sbin/munged',
      [
        '--foreground',
        '--force',
        `--key-file=${join(dir, 'munge.key')}`,
        `--socket=${join(dir, 'munge.socket')}`,
        `--pid-file=${join(dir, 'munged.pid')}`,
        `--log-file=${join(dir, 'munged.log')}`,
        `--seed-file=${join(dir, 'munged.seed')}`,
      ],
      'munged.out',
    );
    for (let i = 0; i < 50 && !existsSync(join(dir, 'munge.socket')); i++) await sleep(100);
    daemon('/usr/sbin/slurmctld', ['-D', '-c', '-f', conf], 'slurmctld.out');
    daemon('/usr/sbin/slurmd', ['-D', '-f', conf], 'slurmd.out');
    const deadline = Date.now() + 60_000;
    for (;;) {
      const sinfo = await runProcess('/usr/bin/sinfo', ['-h', '-N', '-o', '%T'], { env, timeoutMs: 10_000 });
      if (sinfo.status === 0 && sinfo.stdout.trim() === 'idle') break;
      if (Date.now() > deadline)
        throw new Error(`the node did not come up idle in 60 s (sinfo: '${sinfo.stdout.trim()}')\n${logs()}`);
      await sleep(500);
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { node, firstJobId, env, logs, stop };
}
