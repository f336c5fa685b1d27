import { describe, expect, it } from 'vitest';
import { runProcess } from './index.js';

describe('runProcess (Note [Specs never block their worker])', () => {
  it("resolves with the exit code and what the child printed, its environment added to this process's", async () => {
    const r = await runProcess(
      process.execPath,
      ['-e', 'console.log(process.env.WG_X); console.error("e"); process.exit(3)'],
      { env: { WG_X: 'x' } },
    );
    expect(r).toEqual({ status: 3, signal: null, stdout: 'x\n', stderr: 'e\n' });
  });

  it('kills a child that outlives its timeout, and the event loop stays free meanwhile', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const r = await runProcess(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { timeoutMs: 500 });
    clearInterval(timer);
    expect([r.status, r.signal]).toEqual([null, 'SIGKILL']);
    expect(ticks).toBeGreaterThan(5);
  });
});
