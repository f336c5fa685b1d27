import type { Tensor } from '@wiregrad/autograd';
import { DistributedError } from '../errors.js';
import { groupOf } from '../processGroup.js';
import { checkList } from './allGather.js';
import { agree } from './exchange.js';
import { groupRank } from './groupRank.js';
import { checkTensor, received, valuesOf, wire, writeBack } from './tensors.js';
import { type CollectiveOptions, type Launched, launch } from './work.js';

export interface ScatterOptions extends CollectiveOptions {
  src?: number;
  /** on `src` only: one tensor per rank; rank r's `output` receives `scatterList[r]` */
  scatterList?: Tensor[];
}

/** Rank r's `output` receives rank `src`'s (default 0) `scatterList[r]`. One round. */
export function scatter<O extends ScatterOptions>(output: Tensor, opts?: O): Launched<O> {
  return launch(opts, async () => {
    checkTensor('scatter', 'output', output);
    const group = groupOf(opts?.group);
    const src = opts?.src ?? 0;
    const root = groupRank(group, src, 'scatter(): src');
    const isRoot = group.rank === root;
    if (!isRoot && opts?.scatterList)
      throw new DistributedError('INVALID_ARGUMENT', 'scatter(): scatterList is only given on the src rank');
    const list = isRoot ? checkList('scatter', 'scatterList', opts?.scatterList, output, group.size()) : [];
    const desc = { kind: 'scatter', dtype: output.dtype, shape: [...output.shape], root: src };
    const { chunks } = await agree(group, desc, (to) => (isRoot ? wire(valuesOf(list[to]!), output.dtype) : null));
    writeBack(
      output,
      isRoot ? valuesOf(list[root]!) : received(chunks[root]!.data, output.numel, `scatter from rank ${src}`),
    );
  });
}
