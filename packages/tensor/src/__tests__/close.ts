import { expect } from 'vitest';

/** |got - want| <= atol + rtol |want| everywhere; NaN and infinities must match exactly. */
export function expectClose(got: ArrayLike<number>, want: ArrayLike<number>, rtol: number, atol = 0): void {
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
