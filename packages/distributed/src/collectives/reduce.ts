import type { Tensor } from '@wiregrad/autograd';
import { groupOf } from '../processGroup.js';
import { type ReduceOptions, checkOp } from './allReduce.js';
import { agree } from './exchange.js';
import { groupRank } from './groupRank.js';
import { ReduceOp, combine, finish } from './reduceOp.js';
import { checkTensor, received, valuesOf, wire, writeBack } from './tensors.js';
import { type Launched, launch } from './work.js';

/** Reduces every rank's `t` into rank `dst`'s `t` (in rank order: Note [Fixed reduction order]); the others' are left as they were. */
export function reduce<O extends ReduceOptions>(t: Tensor, dst: number, opts?: O): Launched<O> {
  return launch(opts, async () => {
    checkTensor('reduce', 'tensor', t);
    const op = checkOp('reduce', opts?.op ?? ReduceOp.SUM, t);
    const group = groupOf(opts?.group);
    const root = groupRank(group, dst, 'reduce(): dst');
    const values = valuesOf(t);
    const desc = { kind: 'reduce', dtype: t.dtype, shape: [...t.shape], op, root: dst };
    const { chunks } = await agree(group, desc, (to) => (to === root ? wire(values, t.dtype) : null));
    if (group.rank !== root) return;
    const of = (r: number) => (r === root ? values : received(chunks[r]!.data, values.length, `reduce from rank ${r}`));
    const acc = of(0).slice();
    for (let r = 1; r < group.size(); r++) combine(acc, of(r), op);
    finish(acc, op, group.size());
    writeBack(t, acc);
  });
}
