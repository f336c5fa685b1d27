import { describe, expect, it } from 'vitest';
import { StepClock } from '../src/report/stepClock.js';

/** Burns at least `ms` of this process's cpu time (however long that takes on a loaded machine). */
function spin(ms: number): void {
  const start = process.cpuUsage();
  for (;;) {
    const used = process.cpuUsage(start);
    if (used.user + used.system >= ms * 1000) return;
  }
}

describe('StepClock (Note [Steady-state steps/s])', () => {
  it("the steady half starts at epoch floor(epochs / 2) + 1 and carries the process's cpu seconds spent in it", () => {
    const clock = new StepClock(4);
    for (let epoch = 1; epoch <= 4; epoch++) {
      clock.epoch(epoch);
      for (let i = 0; i < 3; i++) clock.step();
      if (epoch >= 3) spin(30);
    }
    const t = clock.totals();
    expect(t.steps).toBe(12);
    expect(t.steady?.steps).toBe(6);
    // two epochs of 30 ms of cpu each, all in the steady half
    expect(t.steady!.cpuSeconds).toBeGreaterThanOrEqual(0.06);
    expect(t.steady!.seconds).toBeGreaterThan(0);
    expect(t.seconds).toBeGreaterThanOrEqual(t.steady!.seconds);
  });

  it('a run of one epoch has no steady half', () => {
    const clock = new StepClock(1);
    clock.epoch(1);
    clock.step();
    expect(clock.totals()).toEqual({ steps: 1, seconds: expect.any(Number) });
  });
});
