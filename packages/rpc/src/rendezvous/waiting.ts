/**
 * What a worker waiting in the rendezvous says while it waits and when it gives up (See Note
 * [Rendezvous]): who it is waiting for, every few seconds, and on timeout the usual reasons a
 * group never assembles.
 */

/** How often a waiting worker reports, unless the caller asks otherwise. */
export const REPORT_EVERY_MS = 5000;

/** Where a waiting worker's reports go (initRpc: backendOptions.onProtocolError, else console.warn). */
export interface WaitReports {
  report: (message: string) => void;
  /** ms between reports (default REPORT_EVERY_MS; the first comes after one interval) */
  everyMs?: number;
}

/** The ranks in [0, worldSize) that no arrived worker claims. */
export function missingRanks(arrived: readonly number[], worldSize: number): number[] {
  const have = new Set(arrived);
  return Array.from({ length: worldSize }, (_, r) => r).filter((r) => !have.has(r));
}

function ranks(list: readonly number[]): string {
  return list.length === 1 ? `rank ${list[0]}` : `ranks ${list.join(', ')}`;
}

/** Rank 0's progress line: `rendezvous at tcp://…: 1 of 3 workers arrived; waiting for ranks 1, 2`. */
export function storeWaiting(address: string, arrived: readonly number[], worldSize: number): string {
  const missing = missingRanks(arrived, worldSize);
  const waitingFor = missing.length > 0 ? ranks(missing) : `${worldSize - arrived.length} more`;
  return `rendezvous at ${address}: ${arrived.length} of ${worldSize} workers arrived; waiting for ${waitingFor}`;
}

/** Why rank 0's workers did not all arrive (appended to its timeout). */
export function storeCauses(address: string, arrived: readonly number[], worldSize: number): string {
  const missing = missingRanks(arrived, worldSize);
  return (
    (missing.length > 0 ? `; missing ${ranks(missing)}` : '') +
    `. Likely causes: a worker that never started or failed before initRpc; workers given another address or port ` +
    `than ${address} (their initMethod, or MASTER_ADDR and MASTER_PORT for env://); a firewall blocking that port ` +
    `between the hosts; rank numbering (ranks are 0 to worldSize - 1, once each, and every worker passes the same ` +
    `worldSize, here ${worldSize})`
  );
}

/** A worker's progress line while rank 0 has not answered. */
export function workerWaiting(address: string, rank: number, waitedMs: number): string {
  const who = rank >= 0 ? `rank ${rank}` : 'a joining worker';
  return `${who} waiting for rank 0 at ${address} (${Math.round(waitedMs / 1000)} s so far)`;
}

/** Why rank 0 did not answer (appended to a worker's timeout). */
export function workerCauses(): string {
  return (
    `. Likely causes: a wrong address or port (initMethod, or MASTER_ADDR and MASTER_PORT for env://, must name ` +
    `rank 0's host and port); a firewall blocking that port; rank numbering (no worker was started with rank 0); ` +
    `rank 0 never started or failed before initRpc; or rank 0 still waits for other workers (its worldSize ` +
    `counts more workers than were started)`
  );
}

/** `p`, calling `reports.report(message(elapsedMs))` every `everyMs` until it settles. */
export function reportWhileWaiting<T>(
  p: Promise<T>,
  reports: WaitReports | undefined,
  message: (elapsedMs: number) => string,
): Promise<T> {
  if (!reports) return p;
  const start = Date.now();
  const timer = setInterval(() => reports.report(message(Date.now() - start)), reports.everyMs ?? REPORT_EVERY_MS);
  timer.unref();
  return p.finally(() => clearInterval(timer));
}
