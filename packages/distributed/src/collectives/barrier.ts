import { groupOf } from '../processGroup.js';
import { agree } from './exchange.js';
import { type CollectiveOptions, type Launched, launch } from './work.js';

/** Resolves once every rank of the group has called it (one all-to-all round of descriptors). */
export function barrier<O extends CollectiveOptions>(opts?: O): Launched<O> {
  return launch(opts, async () => {
    const group = groupOf(opts?.group);
    if (group.size() > 1) await agree(group, { kind: 'barrier' });
  });
}
