import { type Tensor, cat, narrow, noGrad, copy_ } from '@wiregrad/autograd';
import { broadcast } from '../collectives/broadcast.js';
import type { ProcessGroup } from '../processGroup.js';

/**
 * Overwrites `tensors` on every rank with rank `src`'s (PyTorch's _sync_module_states):
 * coalesced, one broadcast per dtype, in a fixed order so every rank issues the same ones.
 */
export async function syncTensors(tensors: readonly Tensor[], src: number, group: ProcessGroup): Promise<void> {
  const byDtype = new Map<string, Tensor[]>();
  for (const t of tensors) {
    if (t.numel === 0) continue;
    let list = byDtype.get(t.dtype);
    if (!list) byDtype.set(t.dtype, (list = []));
    list.push(t);
  }
  for (const dtype of [...byDtype.keys()].sort()) {
    const list = byDtype.get(dtype)!;
    const flat = noGrad(() => cat(list.map((t) => t.detach().reshape([-1]))));
    await broadcast(flat, src, { group });
    noGrad(() => {
      let offset = 0;
      for (const t of list) {
        copy_(t, narrow(flat, 0, offset, t.numel).reshape([...t.shape]));
        offset += t.numel;
      }
    });
  }
}
