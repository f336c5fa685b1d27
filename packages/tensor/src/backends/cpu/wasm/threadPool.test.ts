import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuKernelInfo, getNumThreads, setCpuKernels, setNumThreads, shutdownThreadPool } from './cpuKernels.js';
import { randn } from '../../../index.js';
import { ThreadPool, spinLoads } from './threadPool.js';
import { wasmRuntime } from './wasmRuntime.js';
import { TensorError } from '../../../errors.js';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('./__tests__/poolExit.fixture.ts', import.meta.url));
const spinFixture = fileURLToPath(new URL('./__tests__/poolSpin.fixture.ts', import.meta.url));

describe('cpu kernel settings (Note [Kernel choice])', () => {
  const threads = getNumThreads();
  afterEach(() => {
    setNumThreads(threads);
    setCpuKernels('auto');
  });

  it('reports the mode, whether wasm runs and the thread count', () => {
    expect(cpuKernelInfo()).toEqual({
      mode: 'auto',
      wasm: true,
      relaxedSimd: expect.any(Boolean),
      threads,
      poolThreads: expect.any(Number),
    });
    setCpuKernels('typescript');
    setNumThreads(3);
    expect(cpuKernelInfo()).toEqual({
      mode: 'typescript',
      wasm: false,
      relaxedSimd: false,
      threads: 3,
      poolThreads: expect.any(Number),
    });
  });

  it('poolThreads: the pool runs on every thread once a big kernel started it (Node starts its threads at once)', async () => {
    await shutdownThreadPool();
    setNumThreads(2);
    expect(cpuKernelInfo().poolThreads).toBe(1);
    const a = randn([300, 300]);
    a.matmul(a);
    expect(cpuKernelInfo().poolThreads).toBe(2);
    await shutdownThreadPool();
    expect(cpuKernelInfo().poolThreads).toBe(1);
  });

  it('rejects bad settings with INVALID_ARGUMENT', () => {
    for (const bad of [0, -1, 1.5, NaN]) {
      expect(() => setNumThreads(bad)).toThrow(TensorError);
      expect(() => setNumThreads(bad)).toThrow(/setNumThreads expects an integer >= 1/);
    }
    expect(() => setCpuKernels('simd' as 'auto')).toThrow(/setCpuKernels expects 'auto' or 'typescript'/);
  });
});

describe('thread pool (Note [Thread pool])', () => {
  it('WIREGRAD_POOL_SPIN: a whole number of loads >= 0 (0 sleeps at once), anything else the default 4000 (Note [Pool spin])', () => {
    expect([spinLoads('0'), spinLoads('250'), spinLoads(undefined), spinLoads('')]).toEqual([0, 250, 4000, 4000]);
    expect([spinLoads('-1'), spinLoads('1.5'), spinLoads('many')]).toEqual([4000, 4000, 4000]);
  });

  it.each(['0', '100000'])(
    'with WIREGRAD_POOL_SPIN=%s a process splits a big add over its threads and gets the same sums',
    async (spin) => {
      const { stdout } = await run(process.execPath, ['--conditions=source', '--import', 'tsx', spinFixture], {
        env: { ...process.env, WIREGRAD_POOL_SPIN: spin, WIREGRAD_NUM_THREADS: '2' },
      });
      expect(JSON.parse(stdout)).toEqual({ poolThreads: 2, same: true });
    },
    60_000,
  );

  it('a trap on a pool thread reaches the caller as KERNEL_FAILED, and the pool keeps working', async () => {
    const runtime = wasmRuntime()!;
    const pool = new ThreadPool(runtime, 2);
    try {
      const outOfBounds = { kernel: 'unaryF32' as const, args: [0, 0xfffff000, 0, 1024] };
      const fine = { kernel: 'unaryF32' as const, args: [0, 65536, 65536, 4] };
      expect(() => pool.run([fine, outOfBounds])).toThrow(expect.objectContaining({ code: 'KERNEL_FAILED' }));
      expect(() => pool.run([fine, fine])).not.toThrow();
      expect(() => pool.run([fine, fine, fine])).toThrow(/3 tasks for a pool of 2 threads/);
    } finally {
      await pool.close();
    }
  });

  it.each([[[]], [['--shutdown']]])(
    'a process that used the pool exits by itself (args %j)',
    async (args) => {
      const started = Date.now();
      const { stdout } = await run(process.execPath, ['--conditions=source', '--import', 'tsx', fixture, ...args], {
        timeout: 30_000,
      });
      expect(stdout).toMatch(/^sum -?\d+\.\d{3} threads 2/);
      expect(Date.now() - started).toBeLessThan(30_000);
    },
    40_000, // tsx's start alone passed vitest's 5 s default on a loaded machine
  );
});
