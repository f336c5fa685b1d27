// `pnpm bench distributed`: @wiregrad/distributed beside PyTorch 1.13's torch.distributed (gloo)
// in the same run: all-reduce latency and algorithm bandwidth on 2 and 4 processes, and DDP's
// scaling (aggregate samples/s of 2 processes over 1, every process at 1 thread), with how much
// of the all-reduce time DDP hid behind backward. Each side runs in blocks of its own (never
// alternating call by call: Debian's OpenBLAS collapses when two pools share 2 busy cores).
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@wiregrad/test-helpers';
import { MALLOC_TUNABLES } from '@wiregrad/distributed';
import { printRows, type Row } from './report.js';

type Side = 'ours' | 'torch';
type Result = Record<string, number | string>;

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const PYTHON = '/usr/bin/python3';

/** Runs one group of `world` processes of `side`; resolves with rank 0's JSON lines. */
async function group(side: Side, world: number, env: Record<string, string>): Promise<Result[]> {
  const port = await freePort();
  const runs = Array.from({ length: world }, (_, rank) => {
    const [cmd, args] =
      side === 'ours'
        ? [process.execPath, ['--conditions=source', '--import', 'tsx', here('./distributedWorker.ts')]]
        : [PYTHON, [here('./torchDistPeer.py')]];
    const child = spawn(cmd, args, {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        ...env,
        RANK: String(rank),
        LOCAL_RANK: String(rank),
        WORLD_SIZE: String(world),
        MASTER_ADDR: '127.0.0.1',
        MASTER_PORT: String(port),
        OMP_NUM_THREADS: '1',
        OPENBLAS_NUM_THREADS: '1',
        OMP_WAIT_POLICY: process.env.OMP_WAIT_POLICY ?? 'PASSIVE',
        // as wiregrad-run starts its workers (Note [Large messages and malloc]); the same for gloo's side
        GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? MALLOC_TUNABLES,
      },
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    return new Promise<Result[]>((resolve, reject) =>
      child.once('close', (code) =>
        code === 0
          ? resolve(
              out
                .split('\n')
                .filter((l) => l.startsWith('{'))
                .map((l) => JSON.parse(l) as Result),
            )
          : reject(new Error(`${side} rank ${rank} of ${world} exited with ${code}`)),
      ),
    );
  });
  return (await Promise.all(runs))[0]!;
}

const hasGloo = () =>
  spawnSync(PYTHON, ['-c', 'import torch.distributed as d; assert d.is_available() and d.is_gloo_available()'])
    .status === 0;

export async function run(): Promise<Row[]> {
  if (!hasGloo()) {
    console.log('\n## distributed\n  skipped: PyTorch with gloo is not installed (apt-get install python3-torch)');
    return [];
  }
  // BENCH_QUICK=1: a smoke run of every part (packages/distributed's benchSmoke spec runs it in CI)
  const quick = process.env.BENCH_QUICK === '1';
  const rows: Row[] = [];
  for (const world of quick ? [2] : [2, 4]) {
    const ours = await group('ours', world, { BENCH_MODE: 'allreduce' });
    const torch = await group('torch', world, { BENCH_MODE: 'allreduce' });
    for (const o of ours) {
      const t = torch.find((r) => r.case === o.case)!;
      const speedup = (t.ms as number) / (o.ms as number);
      const bytes = { '8 B': 8, '4 MiB': 4 << 20, '64 MiB': 64 << 20 }[o.case as string]!;
      const gbs = (ms: number) => `${(bytes / ms / 1e6).toFixed(2)} GB/s`;
      rows.push({
        case: `all-reduce ${o.case} float32, ${world} processes`,
        ours: bytes > 8 ? `wiregrad ${gbs(o.ms as number)}` : 'wiregrad',
        peer: bytes > 8 ? `gloo ${gbs(t.ms as number)}` : 'gloo',
        oursMs: o.ms as number,
        peerMs: t.ms as number,
        target: bytes > 8 ? 'bandwidth >= gloo' : 'latency <= gloo',
        speedup,
        met: speedup >= 1,
      });
    }
  }
  const scaling: Record<string, unknown>[] = [];
  for (const widths of quick ? ['784,256,10'] : ['784,256,10', '784,1024,1024,10']) {
    const env = { BENCH_MODE: 'ddp', BENCH_WIDTHS: widths, ...(quick ? { BENCH_STEPS: '5' } : {}) };
    const [o1] = await group('ours', 1, env);
    const [o2] = await group('ours', 2, env);
    const [t1] = await group('torch', 1, env);
    const [t2] = await group('torch', 2, env);
    const ratio = (one: Result, two: Result) => (2 * (one.stepMs as number)) / (two.stepMs as number);
    const hidden = (r: Result) => {
      const comm = r.commMs as number;
      const h = ((r.localMs as number) + comm - (r.stepMs as number)) / comm;
      return `${(Math.min(1, Math.max(0, h)) * 100).toFixed(0)} % of ${comm.toFixed(2)} ms`;
    };
    const [ours, peer] = [ratio(o1!, o2!), ratio(t1!, t2!)];
    // gradients as bucket views on both sides (PyTorch's gradient_as_bucket_view), reported beside
    const viewsEnv = { ...env, BENCH_GRAD_VIEWS: '1' };
    const views: [Result, Result] | null = quick
      ? null
      : [(await group('ours', 2, viewsEnv))[0]!, (await group('torch', 2, viewsEnv))[0]!];
    scaling.push({
      MLP: widths.replaceAll(',', '-'),
      'ours 1 / 2 procs (ms/step)': `${(o1!.stepMs as number).toFixed(2)} / ${(o2!.stepMs as number).toFixed(2)}`,
      'torch 1 / 2 procs (ms/step)': `${(t1!.stepMs as number).toFixed(2)} / ${(t2!.stepMs as number).toFixed(2)}`,
      'ours 2-vs-1 samples/s': ours.toFixed(2),
      'torch 2-vs-1 samples/s': peer.toFixed(2),
      'all-reduce hidden behind backward (ours)': hidden(o2!),
      'all-reduce hidden (torch)': hidden(t2!),
      ...(views && {
        'as bucket views: ours / torch 2-vs-1': `${ratio(o1!, views[0]).toFixed(2)} / ${ratio(t1!, views[1]).toFixed(2)}`,
      }),
    });
    rows.push({
      case: `DDP ${widths.replaceAll(',', '-')} 2 processes, batch 64 each`,
      ours: `wiregrad (${ours.toFixed(2)}x of 1 process)`,
      peer: `torch DDP (${peer.toFixed(2)}x)`,
      oursMs: o2!.stepMs as number,
      peerMs: t2!.stepMs as number,
      target: widths === '784,1024,1024,10' ? '2-vs-1 >= 1.5x and >= torch' : '2-vs-1 >= torch',
      speedup: ours / peer,
      met: ours >= peer && (widths !== '784,1024,1024,10' || ours >= 1.5),
    });
  }
  printRows('distributed (wiregrad vs torch.distributed gloo, PyTorch 1.13)', rows);
  console.log('\n## DDP scaling (aggregate samples/s of 2 processes over 1; every process at 1 thread)');
  console.table(scaling);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
