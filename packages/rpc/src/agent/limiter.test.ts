import { describe, expect, it } from 'vitest';
import { Limiter } from './limiter.js';

describe('Limiter', () => {
  it('never runs more than its size at once, and runs everything', async () => {
    const lim = new Limiter(3);
    let active = 0;
    let peak = 0;
    const done = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        lim.run(async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, i % 3));
          active--;
          return i;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(done).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});
