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

/** |got - want| <= atol + rtol |want| everywhere; NaN and infinities must match exactly. */
export function expectClose(got: Float32Array, want: Float32Array, rtol: number, atol = 0): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < got.length; i++) {
    const g = got[i]!;
    const w = want[i]!;
    if (Number.isNaN(w) || !Number.isFinite(w)) {
      if (!Object.is(g, w)) expect.fail(`element ${i}: ${g}, want ${w}`);
    } else if (!(Math.abs(g - w) <= atol + rtol * Math.abs(w))) {
      expect.fail(`element ${i}: ${g}, want ${w} (rtol ${rtol}, atol ${atol})`);
    }
  }
}
