import type { Tensor } from '@wiregrad/autograd';
import { groupOf } from '../processGroup.js';
import { agree } from './exchange.js';
import { groupRank } from './groupRank.js';
import { checkTensor, received, valuesOf, wire, writeBack } from './tensors.js';
import { type CollectiveOptions, type Launched, launch } from './work.js';

/** Overwrites `t` on every rank with rank `src`'s `t` (src is a global rank, as in PyTorch). One round: the data rides with step 0. */
export function broadcast<O extends CollectiveOptions>(t: Tensor, src: number, opts?: O): Launched<O> {
  return launch(opts, async () => {
    checkTensor('broadcast', 'tensor', t);
    const group = groupOf(opts?.group);
    const root = groupRank(group, src, 'broadcast(): src');
    const mine = group.rank === root ? wire(valuesOf(t), t.dtype) : null;
    const { chunks } = await agree(
      group,
      { kind: 'broadcast', dtype: t.dtype, shape: [...t.shape], root: src },
      () => mine,
    );
    if (group.rank !== root) writeBack(t, received(chunks[root]!.data, t.numel, `broadcast from rank ${src}`));
  });
}
