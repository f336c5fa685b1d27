import { agree } from './collectives/exchange.js';
import { DistributedError } from './errors.js';
import { ProcessGroup, defaultGroup, nextGroupId } from './processGroup.js';

/**
 * A new group of `ranks` (torch.distributed.new_group): every rank of the world calls it, in
 * the same order, with the same ranks (checked); a rank outside `ranks` gets a group it may not
 * use. Pass it as `{ group }`.
 */
export async function newGroup(ranks: number[]): Promise<ProcessGroup> {
  const world = defaultGroup();
  const worldSize = world.size();
  const me = world.rank;
  const sorted = [...new Set(ranks)].sort((a, b) => a - b);
  if (sorted.length !== ranks.length || sorted.some((r) => !Number.isInteger(r) || r < 0 || r >= worldSize))
    throw new DistributedError(
      'INVALID_ARGUMENT',
      `newGroup needs distinct ranks in [0, ${worldSize}), got [${ranks}]`,
    );
  const id = nextGroupId();
  await agree(world, { kind: 'newGroup', extra: sorted.join(',') });
  return new ProcessGroup(id, sorted, sorted.indexOf(me));
}
