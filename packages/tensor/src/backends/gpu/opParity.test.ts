import { describe, expect, it } from 'vitest';
import { CASES, expectClose } from './__tests__/opCases.js';
import { gpuInfo } from './gpuRuntime.js';

// Every op case on the cpu and on gpu:0 against the cpu values, in whatever mode gpu.js starts
// here (headless-gl under CI's Xvfb, webasm on a plain Node install) and, run by the playground's
// parity page, in WebGL2 in Chromium (apps/playground, Note [Parity specs in the browser]).
const DEVICES = ['cpu', 'gpu:0'] as const;

describe.each(DEVICES)(`op parity on %s (gpu.js ${gpuInfo().mode}, float32 tolerances)`, (dev) => {
  it.each(CASES)('%s', (_, build) => {
    const want = [build((t) => t)].flat();
    const got = [build((t) => t.to(dev))].flat();
    got.forEach((g, i) => {
      expect(g.device.toString()).toBe(dev === 'cpu' ? 'cpu' : 'gpu:0');
      expectClose(g, want[i]!);
    });
  });
});
