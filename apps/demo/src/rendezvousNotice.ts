import type { DemoConfig } from './cli.js';

/** How often a worker still at the rendezvous says so. */
const WAITING_NOTICE_MS = 3000;

/**
 * While a worker waits at the rendezvous (initRpc has not returned), it says so: rank 0, started
 * by hand (`pnpm demo worker`, no launcher), at once, with how many workers it waits for and the
 * address they must be given; every worker again every few seconds, so a trainer started before
 * rank 0, or pointed at the wrong --master, does not look hung. Returns the function that stops
 * the notices.
 */
export function noticeWhileWaiting(c: DemoConfig, rank: number, name: string): () => void {
  const t0 = Date.now();
  const what = c.join
    ? `joining the running group at ${c.master}: waiting for its rank 0 to answer`
    : rank === 0
      ? `serving the rendezvous at ${c.master}: waiting for all ${c.workers} workers (--workers ${c.workers}) to join`
      : `waiting for rank 0 at ${c.master} (and the rest of the ${c.workers} workers)`;
  const say = () => console.log(`[${name}] ${what}, ${Math.round((Date.now() - t0) / 1000)} s so far`);
  if (rank === 0 && !process.send) say();
  const timer = setInterval(say, WAITING_NOTICE_MS);
  return () => clearInterval(timer);
}
