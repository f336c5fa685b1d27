import { DistributedError } from '../errors.js';
import type { ProcessGroup } from '../processGroup.js';

/** The group rank of global rank `r` (roots are global ranks, as in PyTorch). */
export function groupRank(group: ProcessGroup, r: unknown, what: string): number {
  const i = Number.isInteger(r) ? group.ranks.indexOf(r as number) : -1;
  if (i < 0)
    throw new DistributedError(
      'INVALID_ARGUMENT',
      `${what} ${String(r)} is not a rank of the group of ranks [${group.ranks.join(', ')}]`,
    );
  return i;
}
