import type { Tensor } from '@wiregrad/autograd';
import { DistributedError } from '../errors.js';
import { groupOf } from '../processGroup.js';
import { checkList } from './allGather.js';
import { agree } from './exchange.js';
import { groupRank } from './groupRank.js';
import { checkTensor, received, valuesOf, wire, writeBack } from './tensors.js';
import { type CollectiveOptions, type Launched, launch } from './work.js';

export interface GatherOptions extends CollectiveOptions {
  dst?: number;
  /** on `dst` only: one tensor per rank, filled with that rank's input */
  gatherList?: Tensor[];
}

/** Rank `dst` (default 0) receives every rank's `input` into `gatherList[r]`. One round. */
export function gather<O extends GatherOptions>(input: Tensor, opts?: O): Launched<O> {
  return launch(opts, async () => {
    checkTensor('gather', 'input', input);
    const group = groupOf(opts?.group);
    const dst = opts?.dst ?? 0;
    const root = groupRank(group, dst, 'gather(): dst');
    const isRoot = group.rank === root;
    if (!isRoot && opts?.gatherList)
      throw new DistributedError('INVALID_ARGUMENT', 'gather(): gatherList is only given on the dst rank');
    const list = isRoot ? checkList('gather', 'gatherList', opts?.gatherList, input, group.size()) : [];
    const values = valuesOf(input);
    const desc = { kind: 'gather', dtype: input.dtype, shape: [...input.shape], root: dst };
    const { chunks } = await agree(group, desc, (to) => (to === root ? wire(values, input.dtype) : null));
    list.forEach((out, r) =>
      writeBack(out, r === root ? values : received(chunks[r]!.data, values.length, `gather from rank ${r}`)),
    );
  });
}
