import type { Tensor } from '@wiregrad/autograd';
import { groupOf } from '../processGroup.js';
import { checkList } from './allGather.js';
import { type ReduceOptions, checkOp } from './allReduce.js';
import { agree } from './exchange.js';
import { ReduceOp, combine, finish } from './reduceOp.js';
import { checkTensor, received, valuesOf, wire, writeBack } from './tensors.js';
import { type Launched, launch } from './work.js';

/** Rank r's `output` becomes the reduction of every rank's `inputs[r]` (in rank order). One round. */
export function reduceScatter<O extends ReduceOptions>(output: Tensor, inputs: Tensor[], opts?: O): Launched<O> {
  return launch(opts, async () => {
    checkTensor('reduceScatter', 'output', output);
    const op = checkOp('reduceScatter', opts?.op ?? ReduceOp.SUM, output);
    const group = groupOf(opts?.group);
    const ins = checkList('reduceScatter', 'inputs', inputs, output, group.size());
    const desc = { kind: 'reduceScatter', dtype: output.dtype, shape: [...output.shape], op };
    const { chunks } = await agree(group, desc, (to) => wire(valuesOf(ins[to]!), output.dtype));
    const of = (r: number) =>
      r === group.rank ? valuesOf(ins[r]!) : received(chunks[r]!.data, output.numel, `reduceScatter from rank ${r}`);
    const acc = of(0);
    for (let r = 1; r < group.size(); r++) combine(acc, of(r), op);
    finish(acc, op, group.size());
    writeBack(output, acc);
  });
}
