import type { Tensor } from '@wiregrad/autograd';
import { DistributedError } from '../errors.js';
import { groupOf } from '../processGroup.js';
import { agree } from './exchange.js';
import { checkTensor, received, sameShape, valuesOf, wire, writeBack } from './tensors.js';
import { type CollectiveOptions, type Launched, launch } from './work.js';

/** Checks a list of tensors: one per rank, each of `like`'s dtype and shape. */
export function checkList(fn: string, name: string, list: unknown, like: Tensor, n: number): Tensor[] {
  if (!Array.isArray(list) || list.length !== n)
    throw new DistributedError('INVALID_ARGUMENT', `${fn}(): ${name} must hold one tensor per rank (${n})`);
  list.forEach((t, r) => {
    checkTensor(fn, `${name}[${r}]`, t);
    if (t.dtype !== like.dtype || !sameShape(t.shape, like.shape))
      throw new DistributedError(
        'INVALID_ARGUMENT',
        `${fn}(): ${name}[${r}] is ${t.dtype} [${t.shape.join(', ')}], expected ${like.dtype} [${like.shape.join(', ')}]`,
      );
  });
  return list as Tensor[];
}

/** Fills `outputs[r]` with rank r's `input` on every rank. One round. */
export function allGather<O extends CollectiveOptions>(outputs: Tensor[], input: Tensor, opts?: O): Launched<O> {
  return launch(opts, async () => {
    checkTensor('allGather', 'input', input);
    const group = groupOf(opts?.group);
    const outs = checkList('allGather', 'outputs', outputs, input, group.size());
    const values = valuesOf(input);
    const mine = wire(values, input.dtype);
    const { chunks } = await agree(
      group,
      { kind: 'allGather', dtype: input.dtype, shape: [...input.shape] },
      () => mine,
    );
    outs.forEach((out, r) =>
      writeBack(out, r === group.rank ? values : received(chunks[r]!.data, values.length, `allGather from rank ${r}`)),
    );
  });
}
