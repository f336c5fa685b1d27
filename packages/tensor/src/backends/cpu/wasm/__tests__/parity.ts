import { expect } from 'vitest';
import { setCpuKernels } from '../cpuKernels.js';
import type { Tensor } from '../../../../tensor.js';

/** Runs `f` on the TypeScript kernels and on the automatic (wasm) ones; returns both results' values. */
export function bothKernels(f: () => Tensor): { ts: Float32Array; wasm: Float32Array } {
  setCpuKernels('typescript');
  try {
    const ts = f().toTypedArray() as Float32Array;
    setCpuKernels('auto');
    const wasm = f().toTypedArray() as Float32Array;
    return { ts, wasm };
  } finally {
    setCpuKernels('auto');
  }
}

/** Bit-for-bit equality (NaN equals NaN; -0 and +0 differ). */
export function expectIdentical(got: Float32Array, want: Float32Array): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < got.length; i++) {
    if (!Object.is(got[i], want[i])) expect.fail(`element ${i}: ${got[i]} !== ${want[i]}`);
  }
}

export { expectClose } from '../../../../__tests__/close.js';
