import type { Tensor } from '@wiregrad/autograd';
import { DistributedError } from '../errors.js';
import { deliver, groupOf, mailbox } from '../processGroup.js';
import type { Mailbox } from './mailbox.js';
import { groupRank } from './groupRank.js';
import { checkTensor, received, sameShape, valuesOf, wire, writeBack } from './tensors.js';
import { type CollectiveOptions, type Launched, launch } from './work.js';

export interface P2POptions extends CollectiveOptions {
  /** matches a send with the recv of the same tag (default 0) */
  tag?: number;
}

/** How many messages each (source, destination, tag) has sent / received so far, per mailbox (one per init). */
const counters = new WeakMap<Mailbox, Map<string, number>>();

function nextKey(box: Mailbox, gid: number, src: number, dst: number, tag: number): string {
  let m = counters.get(box);
  if (!m) counters.set(box, (m = new Map()));
  const pair = `p2p|${gid}|${src}>${dst}|${tag}`;
  const n = m.get(pair) ?? 0;
  m.set(pair, n + 1);
  return `${pair}|${n}`;
}

function checkTag(tag: unknown): number {
  if (!Number.isInteger(tag))
    throw new DistributedError('INVALID_ARGUMENT', `tag must be an integer, got ${String(tag)}`);
  return tag as number;
}

/**
 * Sends `t` to rank `dst` (torch.distributed.send); resolves once it is in dst's mailbox. The
 * n-th send from a rank to another with a tag meets the n-th recv there (Note [Collective mailbox]).
 */
export function send<O extends P2POptions>(t: Tensor, dst: number, opts?: O): Launched<O> {
  return launch(opts, async () => {
    checkTensor('send', 'tensor', t);
    const group = groupOf(opts?.group);
    const to = group.ranks[groupRank(group, dst, 'send(): dst')]!;
    const me = group.ranks[group.rank]!;
    if (to === me) throw new DistributedError('INVALID_ARGUMENT', 'send(): a rank cannot send to itself');
    const key = nextKey(mailbox(), group.id, me, to, checkTag(opts?.tag ?? 0));
    const chunk = { meta: { kind: 'send', dtype: t.dtype, shape: [...t.shape] }, data: wire(valuesOf(t), t.dtype) };
    await deliver(to, key, chunk, true);
  });
}

/** Receives into `t` what rank `src` sent with the same tag (torch.distributed.recv); dtype and shape must match. */
export function recv<O extends P2POptions>(t: Tensor, src: number, opts?: O): Launched<O> {
  return launch(opts, async () => {
    checkTensor('recv', 'tensor', t);
    const group = groupOf(opts?.group);
    const from = group.ranks[groupRank(group, src, 'recv(): src')]!;
    const me = group.ranks[group.rank]!;
    if (from === me) throw new DistributedError('INVALID_ARGUMENT', 'recv(): a rank cannot receive from itself');
    const box = mailbox();
    const { meta, data } = await box.take(nextKey(box, group.id, from, me, checkTag(opts?.tag ?? 0)));
    if (meta.dtype !== t.dtype || !sameShape(meta.shape ?? [], t.shape))
      throw new DistributedError(
        'MISMATCH',
        `recv(): rank ${src} sent ${meta.dtype} [${(meta.shape ?? []).join(', ')}], this rank receives into ${t.dtype} [${t.shape.join(', ')}]`,
      );
    writeBack(t, received(data, t.numel, `recv from rank ${src}`));
  });
}
