import { describe, expect, it } from 'vitest';
import { setGpuMode, gpuInfo } from './gpuRuntime.js';
import { CASES, expectClose } from './__tests__/opCases.js';

// This file's own module graph (vitest isolates files): the gpu device forced to WebAssembly,
// so the op specs run on it even where gpuDevice.test.ts runs on WebGL.
setGpuMode('webasm');

describe('op parity on gpu:0 in gpu.js webasm mode', () => {
  it('runs in webasm mode', () => {
    expect(gpuInfo().mode).toBe('webasm');
  });

  it.each(CASES)('%s', (_, build) => {
    const want = [build((t) => t)].flat();
    const got = [build((t) => t.to('gpu'))].flat();
    got.forEach((g, i) => expectClose(g, want[i]!));
  });
});
