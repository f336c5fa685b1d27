// The machine's load while a benchmark runs: load averages, and the share of CPU time the
// hypervisor stole (/proc/stat's steal column), which a shared cloud VM loses to its neighbours.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

interface CpuTimes {
  total: number;
  steal: number;
}

/** The summed cpu line of /proc/stat (jiffies), or null off Linux. */
function cpuTimes(): CpuTimes | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest columns are counted in user)
    return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 };
  } catch {
    return null;
  }
}

/** Steal over the blocks timed so far: jiffies summed over every block, read before and after each. */
export class StealMeter {
  private total = 0;
  private steal = 0;

  async during<T>(fn: () => T | Promise<T>): Promise<T> {
    const before = cpuTimes();
    const r = await fn();
    const after = cpuTimes();
    if (before && after) {
      this.total += after.total - before.total;
      this.steal += after.steal - before.steal;
    }
    return r;
  }

  /** Percent of CPU time stolen during the measured blocks ('n/a' off Linux or when too short to tell). */
  percent(): string {
    return this.total > 0 ? `${((100 * this.steal) / this.total).toFixed(1)}%` : 'n/a';
  }
}

/** `load 1/5/15 min: a b c on N cores`, what every table of figures is printed with. */
export function loadLine(): string {
  const [one, five, fifteen] = loadavg().map((l) => l.toFixed(2));
  return `load ${one} ${five} ${fifteen} (1/5/15 min) on ${cpus().length} cores`;
}
