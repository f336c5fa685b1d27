import { describe, expect, it } from 'vitest';
import { randn } from '../../index.js';
import { gpuCompilations, gpuInfo, loadGpu, setGpuMode } from './gpuRuntime.js';
import { CASES, expectClose } from './__tests__/opCases.js';

// This file's own module graph (vitest isolates files): the gpu device forced to WebAssembly,
// so the op specs run on it even where opParity.test.ts runs on WebGL.
setGpuMode('webasm');

describe('op parity on gpu:0 in gpu.js webasm mode', () => {
  it('runs in webasm mode, reported as not accelerated (Note [Accelerated gpu modes])', async () => {
    // loadGpu with an import(): what a bundled page does
    const info = await loadGpu(() => import('gpu.js'));
    expect(info).toEqual({ available: true, mode: 'webasm', devices: 1, accelerated: false });
    expect(gpuInfo()).toEqual(info);
  });

  it('builds one module per shape and keeps them: a step over 12 shapes compiles nothing after the first (Note [webasm modules])', () => {
    const xs = Array.from({ length: 12 }, (_, i) => randn([4, 3 + i]).to('gpu'));
    const step = () => xs.forEach((x) => x.mul(2).add(1).sum().item());
    step();
    const built = gpuCompilations();
    step();
    step();
    expect(gpuCompilations()).toBe(built);
  });

  it.each(CASES)('%s', (_, build) => {
    const want = [build((t) => t)].flat();
    const got = [build((t) => t.to('gpu'))].flat();
    got.forEach((g, i) => expectClose(g, want[i]!));
  });
});
